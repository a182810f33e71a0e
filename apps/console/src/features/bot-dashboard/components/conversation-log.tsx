import { countryLabel } from '../../../lib/country-name';
import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { CONVERSATION_SEARCH_MAX, type ConversationSummary, type FeedbackLabels } from '@omnibot/contracts';
import { IconDownload, IconMessages } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { formatDateTime } from '../../../lib/dates';
import { useConversations } from '../api/dashboard-api';
import { dashboardPaths } from '../utils/dashboard-paths';

interface ConversationLogProps {
  botId: string;
  labels: FeedbackLabels;
  onOpen: (conversationId: string) => void;
}

function FeedbackBadges({
  feedback,
  labels,
}: {
  feedback: ConversationSummary['feedback'];
  labels: FeedbackLabels;
}) {
  const parts = (
    [
      ['button1', 'green'],
      ['button2', 'yellow'],
      ['button3', 'red'],
    ] as const
  ).filter(([key]) => feedback[key] > 0);
  if (parts.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Group gap={4}>
      {parts.map(([key, color]) => (
        <Badge key={key} color={color} variant="light" tt="none">
          {labels[key]} {feedback[key]}
        </Badge>
      ))}
    </Group>
  );
}

/** A bot's conversations, newest first, searched in their messages and paged by the server; a row opens its transcript. */
export function ConversationLog({ botId, labels, onOpen }: ConversationLogProps) {
  const [query, setQuery] = useState({ page: 1, page_size: 10, q: '' });
  const conversations = useConversations(botId, query);

  const columns = useMemo<DataTableColumn<ConversationSummary>[]>(
    () => [
      {
        id: 'first',
        header: 'First message',
        render: (item) => (
          <Anchor
            component="button"
            type="button"
            ta="left"
            onClick={() => onOpen(item.id)}
            aria-label={`Open the transcript: ${item.first_visitor_text ?? 'no visitor message'}`}
            style={{ wordBreak: 'break-word' }}
          >
            {item.first_visitor_text ?? (
              <Text span c="dimmed" inherit>
                (no visitor message)
              </Text>
            )}
          </Anchor>
        ),
      },
      {
        id: 'started',
        header: 'Started',
        render: (item) => formatDateTime(item.started_at),
        nowrap: true,
      },
      { id: 'messages', header: 'Messages', render: (item) => item.message_count },
      {
        id: 'fallback',
        header: 'Fallback',
        render: (item) =>
          item.fallback_count > 0 ? (
            <Badge color="orange" variant="light">
              {item.fallback_count}
            </Badge>
          ) : (
            0
          ),
      },
      {
        id: 'feedback',
        header: 'Feedback',
        render: (item) => <FeedbackBadges feedback={item.feedback} labels={labels} />,
      },
      {
        id: 'origin',
        header: 'Website',
        render: (item) => (
          <Text size="sm" c={item.origin ? undefined : 'dimmed'} style={{ wordBreak: 'break-all' }}>
            {item.origin ?? 'Unknown'}
          </Text>
        ),
      },
      {
        id: 'country',
        header: 'Country',
        render: (item) => (
          <Text size="sm" c={item.country ? undefined : 'dimmed'}>
            {item.country ? countryLabel(item.country) : '–'}
          </Text>
        ),
      },
    ],
    [labels, onOpen],
  );

  if (conversations.isError && !conversations.data) {
    return (
      <LoadError
        title="The conversations could not be loaded"
        error={conversations.error}
        onRetry={() => void conversations.refetch()}
      />
    );
  }

  return (
    <DataTable<ConversationSummary>
      label="Conversations"
      columns={columns}
      data={conversations.data?.items}
      rowKey={(item) => item.id}
      isLoading={conversations.isPending}
      searchPlaceholder="Search the messages"
      emptyState={
        <EmptyPanel
          icon={<IconMessages size={26} />}
          title="No conversations yet"
          description="Every conversation visitors have with this bot is listed here, with its feedback. Put the widget on your website to start."
          order={3}
          action={
            <Button component={Link} to={dashboardPaths.install} leftSection={<IconDownload size={16} />}>
              Install the widget
            </Button>
          }
        />
      }
      server={{
        total: conversations.data?.total ?? 0,
        page: query.page,
        pageSize: query.page_size,
        search: query.q,
        sort: null,
        onPageChange: (page) => setQuery({ ...query, page }),
        onPageSizeChange: (pageSize) => setQuery({ ...query, page_size: pageSize, page: 1 }),
        onSearchChange: (q) => setQuery({ ...query, q: q.slice(0, CONVERSATION_SEARCH_MAX), page: 1 }),
        onSortChange: () => undefined,
      }}
    />
  );
}
