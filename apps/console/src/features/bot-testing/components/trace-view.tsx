import { Badge, Collapse, Group, List, Stack, Text, UnstyledButton } from '@mantine/core';
import type { BotChatReply, TraceChunk } from '@omnibot/contracts';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useId, useState } from 'react';

const ms = (value: number) => `${Math.round(value)} ms`;

/** Where in its document a chunk is: heading path and page. */
const placeOf = (chunk: TraceChunk) =>
  [chunk.heading_path.join(' › '), chunk.page === null ? '' : `page ${chunk.page}`]
    .filter(Boolean)
    .join(', ');

function ChunkItem({ chunk }: { chunk: TraceChunk }) {
  const place = placeOf(chunk);
  return (
    <List.Item>
      <Stack gap={2}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {chunk.title}
          </Text>
          <Badge size="xs" variant="light" color="gray">
            score {chunk.score.toFixed(3)}
          </Badge>
          {chunk.cited && (
            <Badge size="xs" variant="light" color="teal">
              cited
            </Badge>
          )}
        </Group>
        {place && (
          <Text size="xs" c="dimmed">
            {place}
          </Text>
        )}
        <Text size="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {chunk.excerpt}
        </Text>
      </Stack>
    </List.Item>
  );
}

/** How an answer was made, folded under the answer: engine, error, timings and the chunks retrieved. */
export function TraceView({ reply }: { reply: BotChatReply }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const { trace } = reply;
  return (
    <Stack gap={4}>
      <UnstyledButton
        onClick={() => setOpen((value) => !value)}
        aria-expanded={open}
        aria-controls={panelId}
        fz="xs"
        c="dimmed"
      >
        <Group gap={4} wrap="nowrap">
          {open ? (
            <IconChevronDown size={14} aria-hidden="true" />
          ) : (
            <IconChevronRight size={14} aria-hidden="true" />
          )}
          Trace · {trace.engine}
          {trace.kind ? ` (${trace.kind})` : ''} · {ms(trace.timings.total_ms)}
          {trace.chunks.length > 0 ? ` · ${trace.chunks.length} chunks` : ''}
        </Group>
      </UnstyledButton>
      <Collapse expanded={open} id={panelId}>
        <Stack gap="xs" pl="md" aria-label="Trace">
          <Text size="xs" aria-label="Timings">
            Retrieve {ms(trace.timings.retrieve_ms)} · Generate {ms(trace.timings.generate_ms)} · Total{' '}
            {ms(trace.timings.total_ms)}
          </Text>
          {reply.fallback && (
            <Text size="xs" c="orange">
              The bot gave its fallback text{reply.handover_offered ? ' and would offer a live agent' : ''}.
            </Text>
          )}
          {trace.error && (
            <Text size="xs" c="red">
              {trace.error.reason} ({trace.error.code})
            </Text>
          )}
          {trace.chunks.length === 0 ? (
            <Text size="xs" c="dimmed">
              No chunks were retrieved for this answer.
            </Text>
          ) : (
            <List spacing="xs" listStyleType="none" aria-label="Retrieved chunks">
              {trace.chunks.map((chunk) => (
                <ChunkItem key={chunk.chunk_id} chunk={chunk} />
              ))}
            </List>
          )}
        </Stack>
      </Collapse>
    </Stack>
  );
}
