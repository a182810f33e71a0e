import { countryLabel } from '../../../lib/country-name';
import {
  Alert,
  Badge,
  Button,
  Card,
  Divider,
  Group,
  Paper,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { CaseSummary, InboxConversation, LiveMessage } from '@omnibot/contracts';
import { IconArrowBackUp, IconHandStop, IconX } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { LoadError } from '../../../components/forms/form-skeleton';
import { CaseSummaryPanel } from '../../../components/ui/case-summary-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { formatDateTime } from '../../../lib/dates';
import { languageName } from '../../../lib/languages';
import {
  useClaimConversation,
  useCloseConversation,
  useInboxTranscript,
  useReleaseConversation,
} from '../api/inbox-api';
import { authorOf, isMine, STATE_COLORS, stateLabel } from '../utils/inbox-values';
import { AgentComposer } from './agent-composer';
import classes from './inbox.module.css';

/**
 * What the agent reads first: a visitor's message in the agent's language when it was translated, with the visitor's
 * own words beneath; an agent's message as they wrote it, with what the visitor received beneath.
 */
function MessageText({ message }: { message: LiveMessage }) {
  const { translation, language } = message;
  const from = language === undefined ? 'the visitor' : languageName(language);
  return (
    <>
      <Text size="sm">{message.role === 'visitor' && translation ? translation.text : message.text}</Text>
      {translation && message.role === 'visitor' && (
        <Text size="xs" c="dimmed" data-testid="original">
          Original ({from}): {message.text}
        </Text>
      )}
      {translation && message.role === 'agent' && (
        <Text size="xs" c="dimmed" data-testid="sent-translation">
          The visitor reads ({languageName(translation.language)}): {translation.text}
        </Text>
      )}
      {message.untranslated === true && (
        <Text size="xs" c="orange">
          Not translated: the translator did not answer, so the original was sent.
        </Text>
      )}
    </>
  );
}

function MessageLine({ message }: { message: LiveMessage }) {
  if (message.role === 'system') {
    return (
      <Text size="xs" c="dimmed" fs="italic" className={classes.systemLine} data-role="system">
        {message.text}
      </Text>
    );
  }
  return (
    <Paper className={classes.bubble} data-role={message.role} p="xs" radius="md">
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="xs" fw={600}>
          {authorOf(message)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(message.at)}
        </Text>
      </Group>
      <MessageText message={message} />
    </Paper>
  );
}

/** The transcript, the bot's part first; it keeps the newest message in view as messages come in. */
function Transcript({ messages }: { messages: readonly LiveMessage[] }) {
  const viewport = useRef<HTMLDivElement>(null);
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [messages.length]);
  if (messages.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No message yet.
      </Text>
    );
  }
  return (
    <ScrollArea.Autosize viewportRef={viewport} className={classes.transcript} type="auto" offsetScrollbars>
      <Stack gap="xs" component="ol" aria-label="Transcript" className={classes.list}>
        {messages.map((message) => (
          <Stack component="li" key={message.id} gap={0}>
            <MessageLine message={message} />
          </Stack>
        ))}
      </Stack>
    </ScrollArea.Autosize>
  );
}

function ConversationHeader({
  conversation,
  userId,
  summary,
}: {
  conversation: InboxConversation;
  userId: string | null;
  summary: CaseSummary | null;
}) {
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs">
        <Title order={2} size="h4">
          {conversation.bot.name}
        </Title>
        <Badge color={STATE_COLORS[conversation.state]} variant="light">
          {stateLabel(conversation, userId)}
        </Badge>
      </Group>
      <Group gap="md" wrap="wrap">
        <Text size="sm">
          <Text span c="dimmed" inherit>
            Visitor language:{' '}
          </Text>
          {conversation.language}
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <Text span c="dimmed" inherit>
            Origin:{' '}
          </Text>
          {conversation.origin ?? 'unknown'}
        </Text>
        {conversation.country && (
          <Text size="sm">
            <Text span c="dimmed" inherit>
              Country:{' '}
            </Text>
            {countryLabel(conversation.country)}
          </Text>
        )}
        <Text size="sm">
          <Text span c="dimmed" inherit>
            Agent:{' '}
          </Text>
          {conversation.agent?.name ?? 'nobody yet'}
        </Text>
      </Group>
      {summary && <CaseSummaryPanel summary={summary} />}
    </Stack>
  );
}

/** What the reader may do with the conversation, by its state and by who answers it. */
function ConversationActions({
  conversation,
  userId,
}: {
  conversation: InboxConversation;
  userId: string | null;
}) {
  const claim = useClaimConversation();
  const release = useReleaseConversation();
  const close = useCloseConversation();

  const run = async (mutation: typeof claim, success: string, failureTitle: string): Promise<void> => {
    try {
      await mutation.mutateAsync(conversation.id);
      notifySuccess(success);
    } catch (error) {
      notifyError(error, failureTitle);
    }
  };

  if (conversation.state === 'queued') {
    return (
      <Button
        leftSection={<IconHandStop size={16} aria-hidden="true" />}
        loading={claim.isPending}
        onClick={() =>
          void run(claim, 'You answer this conversation now.', 'The conversation was not claimed')
        }
      >
        Claim
      </Button>
    );
  }
  if (isMine(conversation, userId)) {
    const busy = release.isPending || close.isPending;
    return (
      <Stack gap="sm">
        <AgentComposer conversationId={conversation.id} />
        <Group gap="sm" justify="flex-end">
          <Button
            variant="default"
            leftSection={<IconArrowBackUp size={16} aria-hidden="true" />}
            loading={release.isPending}
            disabled={busy && !release.isPending}
            onClick={() =>
              void run(
                release,
                'The bot answers this conversation again.',
                'The conversation was not handed back',
              )
            }
          >
            Hand back to the bot
          </Button>
          <Button
            color="red"
            variant="light"
            leftSection={<IconX size={16} aria-hidden="true" />}
            loading={close.isPending}
            disabled={busy && !close.isPending}
            onClick={() => void run(close, 'The conversation is closed.', 'The conversation was not closed')}
          >
            Close
          </Button>
        </Group>
      </Stack>
    );
  }
  const notice: Record<InboxConversation['state'], string> = {
    agent: `${conversation.agent?.name ?? 'Another agent'} answers this conversation; you can read it.`,
    bot: 'The bot answers this conversation; it comes back here if the visitor asks for a person again.',
    closed: 'This conversation is closed.',
    queued: '',
  };
  return (
    <Alert color="gray" variant="light">
      {notice[conversation.state]}
    </Alert>
  );
}

interface InboxConversationPanelProps {
  id: string;
  userId: string | null;
  /** Whether the visitor is typing right now. */
  visitorTyping: boolean;
}

/** The open conversation: who and where from, the whole transcript, and the actions its state allows. */
export function InboxConversationPanel({ id, userId, visitorTyping }: InboxConversationPanelProps) {
  const transcript = useInboxTranscript(id);

  if (transcript.isPending) {
    return (
      <Card withBorder radius="md" aria-busy="true" aria-label="Loading the conversation">
        <Stack gap="sm">
          <Skeleton height={20} width="40%" />
          <Skeleton height={60} />
          <Skeleton height={60} />
        </Stack>
      </Card>
    );
  }
  if (transcript.isError) {
    return (
      <LoadError
        title="The conversation could not be loaded"
        error={transcript.error}
        onRetry={() => void transcript.refetch()}
      />
    );
  }
  const { conversation, messages } = transcript.data;
  return (
    <Card withBorder radius="md" component="section" aria-label="Conversation">
      <Stack gap="sm">
        <ConversationHeader conversation={conversation} userId={userId} summary={transcript.data.summary} />
        <Divider />
        <Transcript messages={messages} />
        <Text size="sm" c="dimmed" fs="italic" aria-live="polite" mih="1.25rem">
          {visitorTyping ? 'Visitor is typing…' : ''}
        </Text>
        <ConversationActions conversation={conversation} userId={userId} />
      </Stack>
    </Card>
  );
}
