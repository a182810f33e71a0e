import { Alert, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import type { Index, VectorSearchKind } from '@omnibot/contracts';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { embeddedPercent } from '../utils/index-values';
import { EmbeddingBadge } from './embedding-badge';

interface EmbeddingProgressProps {
  index: Index;
  /** How the installation runs vector retrieval; undefined while unknown. */
  vectorSearch: VectorSearchKind | undefined;
}

/**
 * How far the index's chunks are embedded for its embedding model (the page asks again every 2 s while it
 * runs), why it failed, and how vector retrieval runs on this installation.
 */
export function EmbeddingProgress({ index, vectorSearch }: EmbeddingProgressProps) {
  const { embedding } = index;
  if (embedding.state === 'none') return null;
  const percent = embeddedPercent(embedding);
  const isRunning = embedding.state === 'pending' || embedding.state === 'embedding';

  return (
    <Card withBorder radius="md" padding="md" maw={720}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            Embeddings
          </Title>
          <EmbeddingBadge embedding={embedding} />
        </Group>
        <Progress
          value={percent}
          color={embedding.state === 'failed' ? 'red' : embedding.state === 'ready' ? 'teal' : 'blue'}
          animated={isRunning}
          striped={isRunning}
          aria-label="Chunks embedded"
        />
        <Text size="sm">
          {embedding.done} of {embedding.total} chunks embedded ({percent} %).
        </Text>
        {isRunning && (
          <Text size="sm" c="dimmed">
            Until every chunk is embedded the index answers with keyword retrieval.
          </Text>
        )}
        {embedding.state === 'failed' && (
          <Alert color="red" icon={<IconAlertCircle />} title="Embedding failed">
            {embedding.error?.reason ?? 'The chunks could not be embedded.'} Meanwhile the index answers with
            keyword retrieval.
          </Alert>
        )}
        {vectorSearch === 'exact' && (
          <Alert color="blue" variant="light" icon={<IconInfoCircle />} title="Exact vector search">
            This installation has no pgvector extension, so vector retrieval compares the question with every
            chunk of your knowledge bases. That is exact and fine up to tens of thousands of chunks, but
            slower beyond.
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
