import { Badge, Card, Drawer, Group, Pagination, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { KnowledgeSource } from '@omnibot/contracts';
import { useState } from 'react';
import { LoadError } from '../../../components/forms/form-skeleton';
import { useSourceChunks } from '../api/knowledge-api';
import { sourceName } from '../utils/source-values';

const PAGE_SIZE = 20;

function ChunkList({ knowledgeId, source }: { knowledgeId: string; source: KnowledgeSource }) {
  const [page, setPage] = useState(1);
  const chunks = useSourceChunks(knowledgeId, source.id, page, PAGE_SIZE);

  if (chunks.isError && !chunks.data) {
    return (
      <LoadError
        title="The chunks could not be loaded"
        error={chunks.error}
        onRetry={() => void chunks.refetch()}
      />
    );
  }
  if (!chunks.data) return <Skeleton height={120} />;
  const pages = Math.max(1, Math.ceil(chunks.data.total / PAGE_SIZE));

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {chunks.data.total === 1 ? '1 chunk' : `${chunks.data.total} chunks`}
      </Text>
      {chunks.data.items.map((chunk) => (
        <Card key={chunk.id} withBorder radius="sm" padding="sm" data-testid="knowledge-chunk">
          <Group gap="xs" mb={4} wrap="wrap">
            <Badge variant="light" color="gray">
              #{chunk.ordinal + 1}
            </Badge>
            {chunk.page !== null && (
              <Badge variant="light" color="blue">
                Page {chunk.page}
              </Badge>
            )}
            {chunk.heading_path.length > 0 && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {chunk.heading_path.join(' › ')}
              </Text>
            )}
          </Group>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {chunk.text}
          </Text>
        </Card>
      ))}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" />}
    </Stack>
  );
}

interface ChunkViewerProps {
  knowledgeId: string;
  /** The source whose chunks are shown; null keeps the drawer closed. */
  source: KnowledgeSource | null;
  onClose: () => void;
}

/** A drawer listing a source's chunks in order, with their heading path and page, a page at a time. */
export function ChunkViewer({ knowledgeId, source, onClose }: ChunkViewerProps) {
  const isMobile = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer
      opened={source !== null}
      onClose={onClose}
      position="right"
      size={isMobile ? '100%' : 'xl'}
      title={source ? `Chunks of ${sourceName(source)}` : 'Chunks'}
    >
      {source && <ChunkList key={source.id} knowledgeId={knowledgeId} source={source} />}
    </Drawer>
  );
}
