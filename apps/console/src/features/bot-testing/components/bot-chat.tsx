import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import {
  BOT_CHAT_HISTORY_MAX,
  BOT_CHAT_TEXT_MAX,
  type BotChatReply,
  type BotChatTurn,
} from '@omnibot/contracts';
import { IconAlertCircle, IconRefresh, IconSend } from '@tabler/icons-react';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { SafeLink } from '../../../components/ui/safe-link';
import { errorMessage } from '../../../lib/error-message';
import { useBotChat } from '../api/bot-testing-api';
import { TraceView } from './trace-view';

interface Exchange {
  id: number;
  text: string;
  reply: BotChatReply | null;
  error: unknown;
}

/** The turns sent with a message: the answered exchanges, oldest first, at most BOT_CHAT_HISTORY_MAX turns. */
function historyOf(exchanges: Exchange[]): BotChatTurn[] {
  return exchanges
    .flatMap((exchange): BotChatTurn[] =>
      exchange.reply
        ? [
            { role: 'user', text: exchange.text },
            ...exchange.reply.messages.map((message) => ({ role: 'assistant' as const, text: message.text })),
          ]
        : [],
    )
    .slice(-BOT_CHAT_HISTORY_MAX);
}

const bubble = { maxWidth: 'min(85%, 40rem)', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

function BotAnswer({ reply }: { reply: BotChatReply }) {
  return (
    <Stack gap={4} align="flex-start" data-testid="bot-message">
      {reply.messages.map((message, position) => (
        <Paper key={position} withBorder radius="lg" px="sm" py={6} style={bubble}>
          <Text size="sm">{message.text}</Text>
        </Paper>
      ))}
      {reply.sources.length > 0 && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          Sources:{' '}
          {reply.sources.map((source, position) => (
            <span key={source.n}>
              {position > 0 ? ', ' : ''}[{source.n}]{' '}
              <SafeLink href={source.url} inherit>
                {source.title}
              </SafeLink>
            </span>
          ))}
        </Text>
      )}
      <TraceView reply={reply} />
    </Stack>
  );
}

/**
 * A messenger with one bot, as staff: each answer with its sources and, folded under it, how it was made.
 * Answers are shown as plain text. The conversation lives only here; "Reset conversation" starts over.
 */
export function BotChat({ botId, botName }: { botId: string; botName: string }) {
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string | null>(null);
  const chat = useBotChat(botId);
  const nextId = useRef(1);
  // Bumped on reset, so a reply to a message sent before it is dropped.
  const generation = useRef(0);

  const send = async () => {
    const trimmed = text.trim();
    if (trimmed === '') {
      setTextError('Type a message first.');
      return;
    }
    if (text.length > BOT_CHAT_TEXT_MAX) {
      setTextError(`A message may have at most ${BOT_CHAT_TEXT_MAX} characters.`);
      return;
    }
    setTextError(null);
    const id = nextId.current++;
    const history = historyOf(exchanges);
    const sentIn = generation.current;
    setExchanges((current) => [...current, { id, text: trimmed, reply: null, error: null }]);
    setText('');
    try {
      const reply = await chat.mutateAsync({ text: trimmed, history });
      if (sentIn !== generation.current) return;
      setExchanges((current) => current.map((item) => (item.id === id ? { ...item, reply } : item)));
    } catch (error) {
      if (sentIn !== generation.current) return;
      setExchanges((current) => current.map((item) => (item.id === id ? { ...item, error } : item)));
    }
  };

  const reset = () => {
    generation.current += 1;
    chat.reset();
    setExchanges([]);
    setTextError(null);
  };

  const retry = (exchange: Exchange) => {
    setExchanges((current) => current.filter((item) => item.id !== exchange.id));
    setText(exchange.text);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!chat.isPending) void send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!chat.isPending) void send();
    }
  };

  return (
    <Paper
      withBorder
      radius="md"
      p={0}
      style={{ display: 'flex', flexDirection: 'column', minHeight: '60dvh' }}
    >
      <Group
        justify="space-between"
        p="sm"
        gap="xs"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Text fw={600} style={{ overflowWrap: 'anywhere', flex: '1 1 0', minWidth: 0 }}>
          {botName}
        </Text>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconRefresh size={14} aria-hidden="true" />}
          onClick={reset}
          disabled={exchanges.length === 0}
        >
          Reset conversation
        </Button>
      </Group>
      <ScrollArea.Autosize mah="65dvh" style={{ flex: 1 }} p="sm">
        {exchanges.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="xl">
            No messages yet. Write one below to see the bot&apos;s answer, its sources and how it was made.
          </Text>
        ) : (
          <Stack gap="md" aria-live="polite" aria-label="Conversation">
            {exchanges.map((exchange) => (
              <Stack key={exchange.id} gap="xs">
                <Box style={{ alignSelf: 'flex-end', ...bubble }} data-testid="user-message">
                  <Paper radius="lg" px="sm" py={6} bg="var(--mantine-primary-color-light)">
                    <Text size="sm">{exchange.text}</Text>
                  </Paper>
                </Box>
                {exchange.reply ? (
                  <BotAnswer reply={exchange.reply} />
                ) : exchange.error ? (
                  <Alert color="red" icon={<IconAlertCircle />} title="No answer" role="alert" maw="40rem">
                    <Stack gap="xs" align="flex-start">
                      <Text size="sm">{errorMessage(exchange.error)}</Text>
                      <Button size="xs" variant="light" color="red" onClick={() => retry(exchange)}>
                        Edit and send again
                      </Button>
                    </Stack>
                  </Alert>
                ) : (
                  <Group gap="xs" aria-label="The bot is answering">
                    <Loader size="xs" type="dots" />
                  </Group>
                )}
              </Stack>
            ))}
          </Stack>
        )}
      </ScrollArea.Autosize>
      <form onSubmit={onSubmit} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Group p="sm" gap="xs" align="flex-end" wrap="nowrap">
          <Textarea
            aria-label="Message"
            placeholder="Write a message"
            rows={2}
            resize="vertical"
            style={{ flex: 1, minWidth: 0 }}
            value={text}
            error={textError}
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={onKeyDown}
          />
          <ActionIcon
            type="submit"
            size="lg"
            aria-label="Send"
            loading={chat.isPending}
            mb={textError ? 22 : 0}
          >
            <IconSend size={18} aria-hidden="true" />
          </ActionIcon>
        </Group>
      </form>
    </Paper>
  );
}
