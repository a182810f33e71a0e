import { Badge, Loader } from '@mantine/core';
import type { KnowledgeSourceState } from '@omnibot/contracts';

const COLOR: Record<KnowledgeSourceState, string> = {
  queued: 'gray',
  fetching: 'blue',
  parsing: 'blue',
  indexing: 'blue',
  ready: 'teal',
  failed: 'red',
};

const LABEL: Record<KnowledgeSourceState, string> = {
  queued: 'Queued',
  fetching: 'Fetching',
  parsing: 'Parsing',
  indexing: 'Indexing',
  ready: 'Ready',
  failed: 'Failed',
};

/** A source's ingestion state; the states still in progress spin. */
export function SourceStateBadge({ state }: { state: KnowledgeSourceState }) {
  const busy = state !== 'ready' && state !== 'failed' && state !== 'queued';
  return (
    <Badge
      color={COLOR[state]}
      variant="light"
      leftSection={busy ? <Loader size={10} color={COLOR[state]} aria-hidden="true" /> : undefined}
    >
      {LABEL[state]}
    </Badge>
  );
}
