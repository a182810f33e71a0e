import { Alert, Button, Card, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import {
  type AnswerResult,
  AnswerBodySchema,
  HISTORY_TURNS_MAX,
  type HistoryTurn,
  QUESTION_MAX,
} from '@omnibot/contracts';
import { IconAlertCircle, IconEraser, IconSend } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorMessage } from '../../../lib/error-message';
import { askRag } from '../api/ask-rag';
import { AnswerText, AnswerView } from './answer-view';

interface Turn {
  id: number;
  question: string;
  /** The answer text streamed so far. */
  text: string;
  result: AnswerResult | null;
  error: unknown;
}

/** The earlier turns sent with a question: the answered ones, oldest first, at most HISTORY_TURNS_MAX. */
function historyOf(turns: Turn[]): HistoryTurn[] {
  const history = turns.flatMap((turn): HistoryTurn[] =>
    turn.result
      ? [
          { role: 'user', content: turn.question },
          { role: 'assistant', content: turn.result.answer },
        ]
      : [],
  );
  return history.slice(-HISTORY_TURNS_MAX);
}

/**
 * Asks the RAG as a visitor would: the answer streams in live, then shows its sources, how it was made and its
 * timings. Earlier questions and answers are sent along, so follow-up questions work, until the box is cleared.
 */
export function RagTestBox({ ragId }: { ragId: string }) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [question, setQuestion] = useState('');
  const [questionError, setQuestionError] = useState<string | null>(null);
  const [isAsking, setIsAsking] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const nextId = useRef(1);

  useEffect(() => () => controller.current?.abort(), []);

  const change = (id: number, update: (turn: Turn) => Turn) =>
    setTurns((current) => current.map((turn) => (turn.id === id ? update(turn) : turn)));

  const ask = async () => {
    const parsed = AnswerBodySchema.safeParse({ question });
    if (!parsed.success) {
      setQuestionError(parsed.error.issues[0]?.message ?? 'The question is not valid');
      return;
    }
    setQuestionError(null);
    const id = nextId.current++;
    const history = historyOf(turns);
    const abort = new AbortController();
    controller.current = abort;
    setTurns((current) => [
      ...current,
      { id, question: parsed.data.question, text: '', result: null, error: null },
    ]);
    setQuestion('');
    setIsAsking(true);
    try {
      const result = await askRag(
        ragId,
        { question: parsed.data.question, history },
        {
          signal: abort.signal,
          onDelta: (text) => change(id, (turn) => ({ ...turn, text: turn.text + text })),
          onReset: () => change(id, (turn) => ({ ...turn, text: '' })),
        },
      );
      change(id, (turn) => ({ ...turn, text: result.answer, result }));
    } catch (error) {
      if (abort.signal.aborted) return;
      change(id, (turn) => ({ ...turn, error }));
    } finally {
      if (controller.current === abort) {
        controller.current = null;
        setIsAsking(false);
      }
    }
  };

  const clear = () => {
    controller.current?.abort();
    controller.current = null;
    setIsAsking(false);
    setTurns([]);
    setQuestionError(null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!isAsking) void ask();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!isAsking) void ask();
    }
  };

  return (
    <Card withBorder radius="md" padding="md" maw={760}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div>
            <Title order={2} size="h4">
              Test
            </Title>
            <Text size="sm" c="dimmed">
              Ask as a visitor would. Earlier questions are kept for follow-ups until you clear them.
            </Text>
          </div>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconEraser size={14} aria-hidden="true" />}
            onClick={clear}
            disabled={turns.length === 0}
          >
            Clear conversation
          </Button>
        </Group>
        {turns.length === 0 && (
          <Text size="sm" c="dimmed">
            No questions yet. Ask one below to see the answer, its sources and how long it took.
          </Text>
        )}
        <Stack gap="md" aria-live="polite">
          {turns.map((turn) => (
            <Stack key={turn.id} gap="xs" data-testid="test-turn">
              <Paper withBorder radius="md" p="xs" bg="var(--mantine-color-default-hover)">
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {turn.question}
                </Text>
              </Paper>
              {turn.result ? (
                <AnswerView result={turn.result} idPrefix={`turn-${turn.id}`} />
              ) : turn.error ? (
                <Alert color="red" icon={<IconAlertCircle />} title="No answer" role="alert">
                  {errorMessage(turn.error)}
                </Alert>
              ) : (
                <Stack gap={4} data-testid="streaming-answer">
                  {turn.text ? (
                    <AnswerText text={turn.text} sources={[]} idPrefix={`turn-${turn.id}`} />
                  ) : null}
                  <Group gap="xs">
                    <Loader size="xs" />
                    <Text size="xs" c="dimmed">
                      {turn.text ? 'Answering…' : 'Searching the index…'}
                    </Text>
                  </Group>
                </Stack>
              )}
            </Stack>
          ))}
        </Stack>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="xs">
            <Textarea
              label="Question"
              placeholder="What would a visitor ask?"
              rows={3}
              resize="vertical"
              maxLength={QUESTION_MAX}
              value={question}
              onChange={(event) => setQuestion(event.currentTarget.value)}
              onKeyDown={onKeyDown}
              error={questionError}
              description="Enter asks; Shift+Enter starts a new line."
            />
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={isAsking}
                leftSection={<IconSend size={16} aria-hidden="true" />}
              >
                Ask
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
