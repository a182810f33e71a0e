import { Anchor, Card, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { useRags } from '../api/rags-api';
import { ragPaths } from '../utils/rag-paths';
import { modelLabel } from '../utils/rag-values';

/** "Used by": the RAGs that answer with this prompt, each linked to its page. */
export function RagsUsingPrompt({ promptId }: { promptId: string }) {
  const rags = useRags({ prompt_id: promptId });

  let content;
  if (rags.isPending) {
    content = (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Loading the RAGs that use this prompt
        </Text>
      </Group>
    );
  } else if (rags.isError) {
    content = (
      <LoadError
        title="The RAGs using this prompt could not be loaded"
        error={rags.error}
        onRetry={() => void rags.refetch()}
      />
    );
  } else if (rags.data.items.length === 0) {
    content = (
      <Text size="sm" c="dimmed">
        No RAG uses this prompt yet. Pick it as the prompt of a RAG on the{' '}
        <Anchor component={Link} to={ragPaths.list} inherit>
          RAGs page
        </Anchor>
        .
      </Text>
    );
  } else {
    content = (
      <List spacing={4} aria-label="RAGs using this prompt">
        {rags.data.items.map((rag) => (
          <List.Item key={rag.id}>
            <Anchor component={Link} to={ragPaths.view(rag.id)} fw={500}>
              {rag.name}
            </Anchor>{' '}
            <Text span size="sm" c="dimmed">
              ({rag.index_name}, {modelLabel(rag)})
            </Text>
          </List.Item>
        ))}
      </List>
    );
  }

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Used by
        </Title>
        {content}
      </Stack>
    </Card>
  );
}
