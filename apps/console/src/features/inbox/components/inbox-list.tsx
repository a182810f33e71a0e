import { Badge, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import type { InboxConversation } from '@omnibot/contracts';
import { useEffect, useState } from 'react';
import { isMine, STATE_COLORS, stateLabel, waitingText } from '../utils/inbox-values';
import classes from './inbox.module.css';

/** The waiting times move on every 30 s. */
const WAITING_TICK_MS = 30_000;

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

interface InboxListProps {
  items: readonly InboxConversation[];
  selectedId: string | null;
  userId: string | null;
  onSelect: (id: string) => void;
}

/** The conversations of the inbox: waiting ones first with how long they wait, then those a person answers. */
export function InboxList({ items, selectedId, userId, onSelect }: InboxListProps) {
  const now = useNow(WAITING_TICK_MS);
  return (
    <Stack component="ul" gap="xs" aria-label="Conversations" className={classes.list}>
      {items.map((conversation) => {
        const selected = conversation.id === selectedId;
        return (
          <li key={conversation.id}>
            <UnstyledButton
              className={classes.item}
              data-selected={selected || undefined}
              data-mine={isMine(conversation, userId) || undefined}
              aria-current={selected ? 'true' : undefined}
              onClick={() => onSelect(conversation.id)}
              w="100%"
            >
              <Paper withBorder p="sm" radius="md" className={classes.itemPaper}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text fw={600} truncate>
                    {conversation.bot.name}
                  </Text>
                  <Badge color={STATE_COLORS[conversation.state]} variant="light" style={{ flexShrink: 0 }}>
                    {stateLabel(conversation, userId)}
                  </Badge>
                </Group>
                <Group gap="xs" mt={4}>
                  <Badge variant="outline" color="gray" size="sm" tt="none">
                    {conversation.language}
                  </Badge>
                  {conversation.state === 'queued' && conversation.queued_at && (
                    <Text size="xs" c="dimmed">
                      {waitingText(conversation.queued_at, now)}
                    </Text>
                  )}
                </Group>
                {conversation.last_message && (
                  <Text size="sm" c="dimmed" lineClamp={2} mt={4}>
                    {conversation.last_message.text}
                  </Text>
                )}
              </Paper>
            </UnstyledButton>
          </li>
        );
      })}
    </Stack>
  );
}
