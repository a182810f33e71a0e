import { Alert, CloseButton, Group, Loader, Text } from '@mantine/core';
import type { ModelTestResult } from '@omnibot/contracts';
import { IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import { testResultText } from '../utils/model-form';

export type ModelTestState =
  { modelName: string; status: 'running' } | { modelName: string; status: 'done'; result: ModelTestResult };

/** The last connection test: progress while it runs, then "works in N ms" or the provider's refusal. */
export function ModelTestResultAlert({ test, onClose }: { test: ModelTestState; onClose: () => void }) {
  if (test.status === 'running') {
    return (
      <Alert
        color="blue"
        variant="light"
        role="status"
        aria-live="polite"
        title={`Testing ${test.modelName}…`}
      >
        <Group gap="xs" wrap="nowrap">
          <Loader size="xs" />
          <Text size="sm">Sending a tiny request to the model; this takes up to 15 seconds.</Text>
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
      title={`${test.modelName}: ${title}`}
      withCloseButton={false}
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
