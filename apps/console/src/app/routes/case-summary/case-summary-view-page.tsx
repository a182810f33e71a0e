import { Alert, Anchor, Stack } from '@mantine/core';
import { CASE_SUMMARY_TRIGGER_LABELS, type CreateCaseSummaryConfigBody } from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import {
  useCaseSummaryConfig,
  useDeleteCaseSummaryConfig,
  useUpdateCaseSummaryConfig,
} from '../../../features/case-summaries/api/case-summaries-api';
import { CaseSummaryForm } from '../../../features/case-summaries/components/case-summary-form';
import { caseSummaryPaths } from '../../../features/case-summaries/utils/case-summary-paths';
import { caseSummaryValuesOf } from '../../../features/case-summaries/utils/case-summary-values';
import { ApiError } from '../../../lib/api-client';
import { useCanConfigure } from '../../../lib/permissions';

function NotFound({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Configuration not found">
      {children}{' '}
      <Anchor component={Link} to={caseSummaryPaths.list} inherit>
        Back to the configurations
      </Anchor>
    </Alert>
  );
}

function CaseSummaryView({ id }: { id: string }) {
  const config = useCaseSummaryConfig(id);
  const update = useUpdateCaseSummaryConfig(id);
  const remove = useDeleteCaseSummaryConfig();
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();

  if (config.isPending) return <FormSkeleton label="Loading the configuration" fields={6} />;
  if (config.isError && config.error instanceof ApiError && [400, 404].includes(config.error.status)) {
    return <NotFound>It may have been deleted.</NotFound>;
  }
  if (config.isError) {
    return (
      <LoadError
        title="The configuration could not be loaded"
        error={config.error}
        onRetry={() => void config.refetch()}
      />
    );
  }
  const data = config.data;

  const onSubmit = async (body: CreateCaseSummaryConfigBody) => {
    await update.mutateAsync(body);
    notifySuccess('The configuration was saved.');
  };

  return (
    <Stack gap={0} w="100%">
      <PageHeader
        title={data.name}
        description={`Model: ${data.model_name ?? 'none (extractive)'} · ${data.triggers
          .map((trigger) => CASE_SUMMARY_TRIGGER_LABELS[trigger])
          .join(', ')} · at most ${data.max_chars} characters`}
        back={{ to: caseSummaryPaths.list, label: 'Case summaries' }}
      />
      {canConfigure ? (
        <CaseSummaryForm
          key={data.updated_at}
          initialValues={caseSummaryValuesOf(data)}
          current={data}
          submitLabel="Save"
          failureTitle="The configuration was not saved"
          isSaving={update.isPending}
          onSubmit={onSubmit}
          actions={
            <ConfirmButton
              variant="default"
              color="red"
              confirm={{
                title: 'Delete configuration',
                message: `"${data.name}" will be deleted; its bots get no new summaries. Summaries already written stay.`,
                confirmLabel: 'Delete',
                danger: true,
              }}
              onConfirm={async () => {
                await remove.mutateAsync(data.id);
                notifySuccess(`Configuration "${data.name}" was deleted.`);
                await navigate(caseSummaryPaths.list);
              }}
            >
              Delete
            </ConfirmButton>
          }
        />
      ) : (
        <ReadOnlyNotice />
      )}
    </Stack>
  );
}

/** /cs/config/view?id=: one case-summary configuration. */
export function Component() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <RequireMenuRoute route="/cs/config">
      {id ? <CaseSummaryView key={id} id={id} /> : <NotFound>No configuration was chosen.</NotFound>}
    </RequireMenuRoute>
  );
}
