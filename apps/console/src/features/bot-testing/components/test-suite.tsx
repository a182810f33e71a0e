import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Progress,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { BotTestCase, BotTestResult, BotTestRun, CreateBotTestCaseBody } from '@omnibot/contracts';
import { IconListCheck, IconPencil, IconPlayerPlay, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { LoadError } from '../../../components/forms/form-skeleton';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import {
  useDeleteTestCase,
  useSaveTestCase,
  useStartTestRun,
  useTestCases,
  useTestRuns,
} from '../api/bot-testing-api';
import { CaseForm } from './case-form';
import { PassRateChart } from './pass-rate-chart';

const STATUS_COLORS = { queued: 'gray', running: 'blue', done: 'teal', failed: 'red' } as const;
const wrap = { overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' } as const;

function Expectations({ testCase }: { testCase: BotTestCase }) {
  return (
    <Stack gap={2}>
      {testCase.expected_text !== null && (
        <Text size="xs" style={wrap}>
          <Text span fw={600} inherit>
            Contains:
          </Text>{' '}
          {testCase.expected_text}
        </Text>
      )}
      {testCase.expected_source_id !== null && (
        <Text size="xs" style={wrap}>
          <Text span fw={600} inherit>
            Cites:
          </Text>{' '}
          {testCase.expected_source_title ?? 'a deleted source'}
        </Text>
      )}
    </Stack>
  );
}

function ResultItem({ result }: { result: BotTestResult }) {
  return (
    <Card withBorder radius="sm" padding="xs" data-testid="test-result">
      <Stack gap={4}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Badge color={result.pass ? 'teal' : 'red'} variant="light" style={{ flexShrink: 0 }}>
            {result.pass ? 'Pass' : 'Fail'}
          </Badge>
          <Text size="sm" fw={500} style={wrap}>
            {result.question}
          </Text>
        </Group>
        <Text size="sm" style={wrap} aria-label="Answer">
          {result.answer}
        </Text>
        <Text size="xs" c={result.pass ? 'dimmed' : 'red'} style={wrap}>
          {result.reason}
        </Text>
      </Stack>
    </Card>
  );
}

/** The newest run: its status, progress while it works, and each case's outcome. */
function LatestRun({ run }: { run: BotTestRun }) {
  const doneCases = run.results.length;
  const working = run.status === 'queued' || run.status === 'running';
  return (
    <Stack gap="xs" aria-live="polite">
      <Group gap="xs">
        <Badge color={STATUS_COLORS[run.status]} variant="light">
          {run.status}
        </Badge>
        <Text size="sm">
          {run.passed} passed · {run.failed} failed · {doneCases} of {run.total} cases
        </Text>
      </Group>
      {working && (
        <Progress
          value={run.total === 0 ? 0 : (doneCases / run.total) * 100}
          animated
          aria-label="Run progress"
        />
      )}
      {run.status === 'failed' && run.error && (
        <Alert color="red" title="The run stopped" role="alert">
          {run.error}
        </Alert>
      )}
      {run.results.map((result) => (
        <ResultItem key={result.case_id} result={result} />
      ))}
    </Stack>
  );
}

/**
 * A bot's test suite: its cases (a question with the text the answer must contain and/or the source it must
 * cite), a Run button, the newest run's progress and outcome per case, and the pass rate over the runs.
 */
export function TestSuite({ botId }: { botId: string }) {
  const cases = useTestCases(botId);
  const runs = useTestRuns(botId);
  const save = useSaveTestCase(botId);
  const remove = useDeleteTestCase(botId);
  const start = useStartTestRun(botId);
  const [editing, setEditing] = useState<BotTestCase | 'new' | null>(null);

  const latest = runs.data?.items[0];
  const running = latest?.status === 'queued' || latest?.status === 'running';
  const caseCount = cases.data?.items.length ?? 0;

  const submit = async (body: CreateBotTestCaseBody) => {
    const current = editing === 'new' || editing === null ? null : editing;
    await save.mutateAsync({ id: current?.id ?? null, body });
    notifySuccess(current ? 'The test case was saved.' : 'The test case was added.');
    setEditing(null);
  };

  const run = async () => {
    try {
      await start.mutateAsync();
      notifySuccess('The test run started.');
    } catch (error) {
      notifyError(error, 'The run did not start');
    }
  };

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Group justify="space-between" gap="xs">
            <Title order={2} size="h4">
              Test cases
            </Title>
            <Group gap="xs">
              <Button
                variant="default"
                leftSection={<IconPlus size={16} aria-hidden="true" />}
                onClick={() => setEditing('new')}
              >
                Add case
              </Button>
              <Button
                leftSection={<IconPlayerPlay size={16} aria-hidden="true" />}
                onClick={() => void run()}
                loading={start.isPending}
                disabled={caseCount === 0 || running}
              >
                Run
              </Button>
            </Group>
          </Group>
          {cases.isPending ? (
            <Skeleton h={80} aria-label="Loading the test cases" />
          ) : cases.isError ? (
            <LoadError
              title="The test cases could not be loaded"
              error={cases.error}
              onRetry={() => void cases.refetch()}
            />
          ) : caseCount === 0 ? (
            <EmptyPanel
              order={3}
              size="sm"
              icon={<IconListCheck aria-hidden="true" />}
              title="No test cases yet"
              description="Add a question with the text its answer must contain or the source it must cite, then run the suite."
            />
          ) : (
            <Stack
              gap="xs"
              component="ul"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
              aria-label="Test cases"
            >
              {cases.data.items.map((testCase) => (
                <Card key={testCase.id} component="li" withBorder radius="sm" padding="xs">
                  <Group justify="space-between" align="flex-start" gap="xs">
                    <Stack gap={4} style={{ flex: '1 1 16rem', minWidth: 0 }}>
                      <Text size="sm" fw={500} style={wrap}>
                        {testCase.question}
                      </Text>
                      <Expectations testCase={testCase} />
                    </Stack>
                    <Group gap={4}>
                      <Button
                        size="xs"
                        variant="subtle"
                        leftSection={<IconPencil size={14} aria-hidden="true" />}
                        onClick={() => setEditing(testCase)}
                        aria-label={`Edit case: ${testCase.question}`}
                      >
                        Edit
                      </Button>
                      <ConfirmButton
                        size="xs"
                        variant="subtle"
                        color="red"
                        aria-label={`Delete case: ${testCase.question}`}
                        confirm={{
                          title: 'Delete test case',
                          message: `"${testCase.question}" will be deleted from the suite. Past runs keep their results.`,
                          confirmLabel: 'Delete',
                          danger: true,
                        }}
                        onConfirm={async () => {
                          await remove.mutateAsync(testCase.id);
                          notifySuccess('The test case was deleted.');
                        }}
                      >
                        Delete
                      </ConfirmButton>
                    </Group>
                  </Group>
                </Card>
              ))}
            </Stack>
          )}
        </Stack>
      </Card>

      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Latest run
          </Title>
          {runs.isPending ? (
            <Skeleton h={60} aria-label="Loading the runs" />
          ) : runs.isError ? (
            <LoadError
              title="The runs could not be loaded"
              error={runs.error}
              onRetry={() => void runs.refetch()}
            />
          ) : latest ? (
            <LatestRun run={latest} />
          ) : (
            <Text size="sm" c="dimmed">
              The suite has not run yet. Add cases and press Run.
            </Text>
          )}
        </Stack>
      </Card>

      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Pass rate over runs
          </Title>
          <PassRateChart runs={runs.data?.items ?? []} />
        </Stack>
      </Card>

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add test case' : 'Edit test case'}
        size="lg"
      >
        {editing !== null && (
          <CaseForm
            botId={botId}
            current={editing === 'new' ? null : editing}
            onSubmit={submit}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}
