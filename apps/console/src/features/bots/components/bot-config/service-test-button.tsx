import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { BotService, IntegrationTestResult } from '@omnibot/contracts';
import { IconCheck, IconPlugConnected, IconX } from '@tabler/icons-react';
import { useContext, useState } from 'react';
import { errorMessage } from '../../../../lib/error-message';
import { useTestBotService } from '../../api/bots-api';
import { type ConfigForm, EditedBot } from './config-editor-context';

/**
 * "Test connection" for one service of the edited bot: a harmless real call with the saved settings, its answer in
 * plain words. Unsaved changes are not part of it, which the button says.
 */
export function ServiceTestButton({ form, service }: { form: ConfigForm; service: BotService }) {
  const botId = useContext(EditedBot);
  const test = useTestBotService();
  const [result, setResult] = useState<IntegrationTestResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run = () => {
    setResult(null);
    setFailure(null);
    test.mutate(
      { id: botId, service },
      { onSuccess: setResult, onError: (error) => setFailure(errorMessage(error)) },
    );
  };
  return (
    <Stack gap={6}>
      <Group gap="sm">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlugConnected size={14} />}
          loading={test.isPending}
          disabled={botId === ''}
          onClick={run}
        >
          Test connection
        </Button>
        {form.isDirty() && (
          <Text size="xs" c="dimmed">
            Tests the saved settings: save your changes first.
          </Text>
        )}
      </Group>
      {result?.ok === true && (
        <Alert color="green" icon={<IconCheck />} title={`Works (${String(result.latency_ms)} ms)`}>
          {result.detail}
        </Alert>
      )}
      {(result?.ok === false || failure !== null) && (
        <Alert color="red" icon={<IconX />} title="It did not work">
          {result?.ok === false ? result.message : failure}
        </Alert>
      )}
    </Stack>
  );
}
