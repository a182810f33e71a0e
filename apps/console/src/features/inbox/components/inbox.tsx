import { Button, Grid, Group, Stack, Text } from '@mantine/core';
import { IconInbox, IconRobot } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { useInboxList } from '../api/inbox-api';
import { useInboxEvents } from '../api/use-inbox-events';
import { inboxPaths } from '../utils/inbox-paths';
import {
  playBeep,
  readNotifyChoice,
  rememberNotifyChoice,
  showWaitingNotification,
} from '../utils/new-conversation-alert';
import { AgentLanguageSelect } from './agent-language-select';
import { InboxConversationPanel } from './inbox-conversation';
import { InboxList } from './inbox-list';
import { NotifySwitch } from './notify-switch';

/** "Visitor is typing…" stays this long after the visitor's last keystroke was reported. */
const TYPING_SHOWN_MS = 6000;

function NoConversations() {
  return (
    <EmptyPanel
      icon={<IconInbox size={26} />}
      title="No visitor is waiting"
      description="No visitor is waiting. Conversations appear here when a bot hands one over; turn on live agents in a bot's Engines section."
      action={
        <Button component={Link} to={inboxPaths.bots} variant="light" leftSection={<IconRobot size={16} />}>
          Open the bots
        </Button>
      }
    />
  );
}

/** The visitor of `openId` is typing: true for a few seconds after each report, for that conversation only. */
function useVisitorTyping(openId: string | null) {
  const [typingId, setTypingId] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const onTyping = useCallback((conversationId: string) => {
    window.clearTimeout(timer.current);
    setTypingId(conversationId);
    timer.current = window.setTimeout(() => setTypingId(null), TYPING_SHOWN_MS);
  }, []);
  return { visitorTyping: openId !== null && typingId === openId, onTyping };
}

interface InboxProps {
  /** The signed-in user, to tell their conversations from other agents'. */
  userId: string | null;
}

/**
 * The agent inbox: the conversations handed over by bots beside the open one (above it on narrow screens), kept
 * current by the inbox's events; the open conversation is in `?id=`, so it survives a reload and can be linked.
 */
export function Inbox({ userId }: InboxProps) {
  const [params, setParams] = useSearchParams();
  const openId = params.get('id');
  const list = useInboxList();
  const [notify, setNotify] = useState(readNotifyChoice);
  const { visitorTyping, onTyping } = useVisitorTyping(openId);

  const onQueued = useCallback(
    (conversationId: string) => {
      if (!notify) return;
      playBeep();
      showWaitingNotification(conversationId);
    },
    [notify],
  );
  useInboxEvents(openId, { onQueued, onTyping });

  const onNotifyChange = (on: boolean) => {
    setNotify(on);
    rememberNotifyChoice(on);
  };
  const open = (id: string) => setParams({ id });

  const items = list.data?.items;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Text c="dimmed" size="sm" style={{ flex: '1 1 16rem' }}>
          {items === undefined
            ? 'Loading the conversations…'
            : `${items.filter((item) => item.state === 'queued').length} waiting, ${items.length} in all`}
        </Text>
        <Group align="flex-start" gap="md" wrap="wrap" style={{ flex: '1 1 20rem' }} justify="flex-end">
          <AgentLanguageSelect />
          <NotifySwitch checked={notify} onChange={onNotifyChange} />
        </Group>
      </Group>
      {list.isError && !items ? (
        <LoadError
          title="The inbox could not be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : items?.length === 0 && openId === null ? (
        <NoConversations />
      ) : (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            {items && items.length > 0 ? (
              <InboxList items={items} selectedId={openId} userId={userId} onSelect={open} />
            ) : (
              <Text size="sm" c="dimmed">
                {items ? 'No visitor is waiting.' : 'Loading…'}
              </Text>
            )}
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            {openId === null ? (
              <Text c="dimmed" size="sm">
                Choose a conversation to read it and answer.
              </Text>
            ) : (
              <InboxConversationPanel id={openId} userId={userId} visitorTyping={visitorTyping} />
            )}
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
