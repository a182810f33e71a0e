import { countryLabel } from '../../../lib/country-name';
import { Alert, Badge, Drawer, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Conversation, TranscriptMessage } from '@omnibot/contracts';
import { LoadError } from '../../../components/forms/form-skeleton';
import { CaseSummaryPanel } from '../../../components/ui/case-summary-panel';
import { SafeLink } from '../../../components/ui/safe-link';
import { formatDateTime } from '../../../lib/dates';
import { useConversation } from '../api/dashboard-api';

const RATING_COLOR = { button1: 'green', button2: 'yellow', button3: 'red' } as const;

function Sources({ sources }: { sources: TranscriptMessage['sources'] }) {
  if (sources.length === 0) return null;
  return (
    <Stack gap={2}>
      <Text size="xs" fw={600} c="dimmed">
        Sources
      </Text>
      {/* Each source carries its own [n], the number the answer cites. */}
      <Stack component="ul" gap={2} m={0} p={0} style={{ listStyle: 'none' }}>
        {sources.map((source) => (
          <Text key={source.n} component="li" size="sm" style={{ wordBreak: 'break-word' }}>
            <SafeLink href={source.url} inherit>
              [{source.n}] {source.title}
            </SafeLink>
          </Text>
        ))}
      </Stack>
    </Stack>
  );
}

/** Who wrote a message, as the transcript names them. */
function authorOf(message: TranscriptMessage): string {
  if (message.role === 'agent') return message.author ?? 'Agent';
  if (message.role === 'system') return 'System';
  return message.role === 'bot' ? 'Bot' : 'Visitor';
}

function MessageCard({ message }: { message: TranscriptMessage }) {
  // The visitor on one side; the bot, the person answering and the system on the other.
  const isBot = message.role !== 'visitor';
  const author = authorOf(message);
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      bg={isBot ? 'var(--mantine-color-default)' : 'var(--mantine-color-blue-light)'}
      style={{ alignSelf: isBot ? 'flex-start' : 'flex-end', maxWidth: '92%', listStyle: 'none' }}
      aria-label={`${author}, ${formatDateTime(message.created_at)}`}
    >
      <Stack gap={6}>
        <Group gap="xs" justify="space-between" wrap="wrap">
          <Text size="xs" fw={700}>
            {author}
          </Text>
          <Group gap={4}>
            {message.fallback && (
              <Badge color="orange" variant="light" size="sm">
                Fallback
              </Badge>
            )}
            <Text size="xs" c="dimmed">
              {formatDateTime(message.created_at)}
            </Text>
          </Group>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {message.text}
        </Text>
        <Sources sources={message.sources} />
        {message.trace && (
          <Text size="xs" c="dimmed">
            Engine {message.trace.engine} · {Math.round(message.trace.ms)} ms
            {message.trace.error ? ` · ${message.trace.error.reason}` : ''}
          </Text>
        )}
        {message.feedback && (
          <Group gap="xs" wrap="wrap">
            <Text size="xs" fw={600}>
              Feedback:
            </Text>
            <Badge color={RATING_COLOR[message.feedback.rating]} variant="light" tt="none">
              {message.feedback.label}
            </Badge>
            {message.feedback.comment && (
              <Text size="sm" fs="italic" style={{ wordBreak: 'break-word' }}>
                “{message.feedback.comment}”
              </Text>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function Transcript({ conversation }: { conversation: Conversation }) {
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {conversation.bot_name} · started {formatDateTime(conversation.started_at)} · language{' '}
        {conversation.language}
        {conversation.origin ? ` · on ${conversation.origin}` : ''}
        {conversation.country ? ` · from ${countryLabel(conversation.country)}` : ''}
      </Text>
      <Text size="xs" c="dimmed">
        Text is shown as it was stored: what the bot&apos;s masking patterns replaced stays masked.
      </Text>
      {conversation.summaries.map((summary) => (
        <CaseSummaryPanel
          key={summary.id}
          summary={summary}
          title={summary.trigger === 'close' ? 'Case summary at close' : 'Case summary at hand-over'}
        />
      ))}
      {conversation.message_total > conversation.messages.length && (
        <Alert color="blue">
          Showing the first {conversation.messages.length} of {conversation.message_total} messages.
        </Alert>
      )}
      {conversation.messages.length === 0 ? (
        <Text c="dimmed">This conversation has no messages.</Text>
      ) : (
        <Stack component="ol" gap="sm" m={0} p={0} aria-label="Messages">
          {conversation.messages.map((message) => (
            <MessageCard key={message.id} message={message} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function TranscriptBody({ id }: { id: string }) {
  const conversation = useConversation(id);
  if (conversation.isError) {
    return (
      <LoadError
        title="The conversation could not be loaded"
        error={conversation.error}
        onRetry={() => void conversation.refetch()}
      />
    );
  }
  if (!conversation.data) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the conversation">
        <Skeleton height={60} />
        <Skeleton height={60} />
        <Skeleton height={60} />
      </Stack>
    );
  }
  return <Transcript conversation={conversation.data} />;
}

/** One conversation's transcript in a side drawer (full width on a phone). */
export function TranscriptDrawer({
  conversationId,
  onClose,
}: {
  conversationId: string | null;
  onClose: () => void;
}) {
  const isMobile = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer
      opened={conversationId !== null}
      onClose={onClose}
      position="right"
      size={isMobile ? '100%' : 'lg'}
      title="Conversation"
    >
      {conversationId && <TranscriptBody key={conversationId} id={conversationId} />}
    </Drawer>
  );
}
