import { Skeleton, Stack } from '@mantine/core';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { useSetupSteps } from '../../../features/getting-started/api/use-setup-steps';
import { SetupChecklist } from '../../../features/getting-started/components/setup-checklist';

/** /getting-started: from an empty organisation to a bot answering on its site (menu: APPS > Getting Started). */
export function Component() {
  const { progress, steps, isComplete } = useSetupSteps();
  return (
    <RequireMenuRoute route="/getting-started">
      <Stack gap={0} w="100%" maw={860}>
        <PageHeader
          title="Getting started"
          description={
            isComplete
              ? 'Every step is done: your bot answers on your site. Sign-in now opens the integrations.'
              : 'Six steps from an empty organisation to a bot that answers on your site. Each is ticked as soon as it is done.'
          }
        />
        {progress.isError ? (
          <LoadError
            title="Your progress could not be loaded"
            error={progress.error}
            onRetry={() => void progress.refetch()}
          />
        ) : steps ? (
          <SetupChecklist steps={steps} />
        ) : (
          <Stack gap="sm" aria-busy="true" aria-label="Loading your progress">
            {Array.from({ length: 6 }, (_, index) => (
              <Skeleton key={index} height={96} radius="md" />
            ))}
          </Stack>
        )}
      </Stack>
    </RequireMenuRoute>
  );
}
