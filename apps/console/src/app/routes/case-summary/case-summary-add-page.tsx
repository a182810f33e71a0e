import { Stack } from '@mantine/core';
import type { CreateCaseSummaryConfigBody } from '@omnibot/contracts';
import { useNavigate } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import { useCreateCaseSummaryConfig } from '../../../features/case-summaries/api/case-summaries-api';
import { CaseSummaryForm } from '../../../features/case-summaries/components/case-summary-form';
import { caseSummaryPaths } from '../../../features/case-summaries/utils/case-summary-paths';
import { DEFAULT_CASE_SUMMARY_VALUES } from '../../../features/case-summaries/utils/case-summary-values';
import { useCanConfigure } from '../../../lib/permissions';

/** /cs/config/add: a new case-summary configuration with the default sections and length. */
export function Component() {
  const create = useCreateCaseSummaryConfig();
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();

  const onSubmit = async (body: CreateCaseSummaryConfigBody) => {
    const config = await create.mutateAsync(body);
    notifySuccess(`Configuration "${config.name}" was created.`);
    await navigate(caseSummaryPaths.view(config.id));
  };

  return (
    <RequireMenuRoute route="/cs/config">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Add case-summary configuration"
          description="Pick the bots; a chat model is optional."
          back={{ to: caseSummaryPaths.list, label: 'Case summaries' }}
        />
        {canConfigure ? (
          <CaseSummaryForm
            initialValues={DEFAULT_CASE_SUMMARY_VALUES}
            submitLabel="Create configuration"
            failureTitle="The configuration was not created"
            isSaving={create.isPending}
            onSubmit={onSubmit}
          />
        ) : (
          <ReadOnlyNotice back={{ to: caseSummaryPaths.list, label: 'Back to the configurations' }} />
        )}
      </Stack>
    </RequireMenuRoute>
  );
}
