import { Badge, Loader } from '@mantine/core';
import type { EmbeddingState, IndexEmbedding } from '@omnibot/contracts';
import { embeddedPercent } from '../utils/index-values';

const COLOR: Record<EmbeddingState, string> = {
  none: 'gray',
  pending: 'gray',
  embedding: 'blue',
  ready: 'teal',
  failed: 'red',
};

const LABEL: Record<EmbeddingState, string> = {
  none: 'Keyword only',
  pending: 'Waiting to embed',
  embedding: 'Embedding',
  ready: 'Ready',
  failed: 'Embedding failed',
};

/** An index's embedding state; while embedding it spins and shows how far it got. */
export function EmbeddingBadge({ embedding }: { embedding: IndexEmbedding }) {
  const { state } = embedding;
  const busy = state === 'embedding';
  return (
    <Badge
      color={COLOR[state]}
      variant="light"
      leftSection={busy ? <Loader size={10} color={COLOR[state]} aria-hidden="true" /> : undefined}
    >
      {busy ? `${LABEL[state]} ${embeddedPercent(embedding)} %` : LABEL[state]}
    </Badge>
  );
}
