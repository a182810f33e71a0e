import { Alert, Badge, Button, Card, Group, NumberInput, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type Index,
  INDEX_TOP_K_MAX,
  SEARCH_QUERY_MAX,
  type SearchHit,
  type SearchIndexBody,
  SearchIndexBodySchema,
  type SearchResult,
} from '@omnibot/contracts';
import { IconAlertCircle, IconSearch } from '@tabler/icons-react';
import { SafeLink } from '../../../components/ui/safe-link';
import { errorMessage } from '../../../lib/error-message';
import { useSearchIndex } from '../api/indexes-api';
import { MODE_LABEL } from '../utils/index-values';

interface RetrievalTestValues {
  query: string;
  /** '' uses the index's own top k. */
  top_k: number | string;
}

const bodyOf = (values: RetrievalTestValues): SearchIndexBody => ({
  query: values.query,
  ...(values.top_k === '' ? {} : { top_k: Number(values.top_k) }),
});

function validate(values: RetrievalTestValues): Partial<Record<keyof RetrievalTestValues, string>> {
  const result = SearchIndexBodySchema.safeParse(bodyOf(values));
  if (result.success) return {};
  const errors: Partial<Record<keyof RetrievalTestValues, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === 'query' || field === 'top_k') && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** A score as it reads best: BM25 and fused scores can be large, similarities are small. */
const formatScore = (score: number) => (Math.abs(score) >= 100 ? score.toFixed(1) : score.toFixed(4));

/**
 * Hit testing: a query runs through the index as a bot's question would, and the ranked chunks come back with
 * their score and where they come from.
 */
export function RetrievalTest({ index }: { index: Index }) {
  const search = useSearchIndex(index.id);
  const form = useForm<RetrievalTestValues>({
    initialValues: { query: '', top_k: '' },
    validate,
  });

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h4">
            Retrieval test
          </Title>
          <Text size="sm" c="dimmed">
            Ask what a user would ask and see which chunks the index returns, best first.
          </Text>
        </Stack>
        <form
          onSubmit={form.onSubmit((values) => search.mutate(bodyOf(values)))}
          noValidate
          aria-label="Retrieval test"
        >
          <Stack gap="sm">
            <Textarea
              label="Query"
              rows={2}
              resize="vertical"
              maxLength={SEARCH_QUERY_MAX}
              key={form.key('query')}
              {...form.getInputProps('query')}
            />
            <Group align="flex-end" gap="sm" wrap="wrap">
              <NumberInput
                label="Top k for this test"
                placeholder={`${index.top_k} (the index's)`}
                allowDecimal={false}
                min={1}
                max={INDEX_TOP_K_MAX}
                w={180}
                key={form.key('top_k')}
                {...form.getInputProps('top_k')}
              />
              <Button
                type="submit"
                loading={search.isPending}
                leftSection={<IconSearch size={16} aria-hidden="true" />}
              >
                Test retrieval
              </Button>
            </Group>
          </Stack>
        </form>
        {search.isError && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert" title="The retrieval test failed">
            {errorMessage(search.error)}
          </Alert>
        )}
        {search.data && <SearchResults index={index} result={search.data} />}
      </Stack>
    </Card>
  );
}

function SearchResults({ index, result }: { index: Index; result: SearchResult }) {
  const count = result.items.length;
  return (
    <Stack gap="sm" aria-live="polite">
      <Group gap="xs">
        <Text size="sm" fw={500}>
          {count === 1 ? '1 chunk' : `${count} chunks`}
        </Text>
        <Badge variant="light">{MODE_LABEL[result.mode]}</Badge>
        <Text size="sm" c="dimmed">
          in {Math.round(result.took_ms)} ms
        </Text>
      </Group>
      {result.mode !== index.mode && (
        <Text size="sm" c="dimmed">
          {MODE_LABEL[index.mode]} retrieval is not ready yet, so keyword retrieval ran.
        </Text>
      )}
      {count === 0 ? (
        <Alert color="gray" variant="light" title="No chunk matched">
          {index.score_threshold > 0
            ? `No chunk scored at least ${index.score_threshold}, the index's score threshold. Try other words, or lower the threshold.`
            : 'Nothing in the knowledge bases matched. Try other words, check that their sources are ready, or use vector or hybrid retrieval to match by meaning.'}
        </Alert>
      ) : (
        <Stack gap="sm" component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
          {result.items.map((hit, at) => (
            <HitCard key={hit.id} hit={hit} rank={at + 1} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function HitCard({ hit, rank }: { hit: SearchHit; rank: number }) {
  const where = [...hit.heading_path, ...(hit.page === null ? [] : [`page ${hit.page}`])].join(' › ');
  return (
    <Card component="li" withBorder radius="sm" padding="sm" aria-label={`Hit ${rank}`}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Badge variant="filled" circle aria-label={`Rank ${rank}`} style={{ flexShrink: 0 }}>
              {rank}
            </Badge>
            <SourceTitle title={hit.source.title} url={hit.source.url} />
          </Group>
          <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
            Score {formatScore(hit.score)}
          </Badge>
        </Group>
        {where && (
          <Text size="xs" c="dimmed">
            {where}
          </Text>
        )}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} lineClamp={8}>
          {hit.text}
        </Text>
      </Stack>
    </Card>
  );
}

function SourceTitle({ title, url }: { title: string; url: string | null }) {
  return (
    <SafeLink href={url} size="sm" fw={500} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
      {title}
    </SafeLink>
  );
}
