import { Alert, CloseButton, Group, Loader, Text } from '@mantine/core';
import type { IntegrationTestResult } from '@omnibot/contracts';
import { IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import { testResultText } from '../utils/integration-form';

export type IntegrationTestState =
  { status: 'idle' } | { status: 'running' } | { status: 'done'; result: IntegrationTestResult };

/** The last connection test: progress while it runs, then what worked or the provider's refusal in plain words. */
export function IntegrationTestResultAlert({
  test,
  onClose,
}: {
  test: IntegrationTestState;
  onClose: () => void;
}) {
  if (test.status === 'idle') return null;
  if (test.status === 'running') {
    return (
      <Alert color="blue" variant="light" role="status" aria-live="polite" title="Testing the connection…">
        <Group gap="xs" wrap="nowrap">
          <Loader size="xs" />
          <Text size="sm">This takes up to 15 seconds.</Text>
        </Group>
      </Alert>
    );
  }
  const { title, message } = testResultText(test.result);
  return (
    <Alert
      color={test.result.ok ? 'teal' : 'red'}
      variant="light"
      role={test.result.ok ? 'status' : 'alert'}
      icon={test.result.ok ? <IconCircleCheck /> : <IconPlugConnectedX />}
      title={title}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {message}
        </Text>
        <CloseButton size="sm" aria-label="Dismiss the test result" onClick={onClose} />
      </Group>
    </Alert>
  );
}
