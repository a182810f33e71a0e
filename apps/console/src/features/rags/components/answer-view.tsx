import { Alert, Anchor, Badge, Group, List, Stack, Text, Title } from '@mantine/core';
import type { AnswerResult, AnswerSource } from '@omnibot/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Fragment } from 'react';
import { SafeLink } from '../../../components/ui/safe-link';
import { KIND_LABELS } from '../utils/rag-values';

const KIND_COLORS = { qa: 'teal', model: 'blue', extractive: 'grape', fallback: 'orange' } as const;

/** The answer text with each [n] marker of a listed source turned into a link to that source. */
export function AnswerText({
  text,
  sources,
  idPrefix,
}: {
  text: string;
  sources: AnswerSource[];
  idPrefix: string;
}) {
  const numbers = new Set(sources.map((source) => source.n));
  const parts = text.split(/(\[\d+\])/);
  return (
    <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {parts.map((part, position) => {
        const n = /^\[(\d+)\]$/.exec(part)?.[1];
        if (n !== undefined && numbers.has(Number(n))) {
          return (
            <Anchor key={position} href={`#${idPrefix}-source-${n}`} aria-label={`Source ${n}`} fw={600}>
              {part}
            </Anchor>
          );
        }
        return <Fragment key={position}>{part}</Fragment>;
      })}
    </Text>
  );
}

/** Where in its document a source is: heading path and page. */
const placeOf = (source: AnswerSource) =>
  [source.heading_path.join(' › '), source.page === null ? '' : `page ${source.page}`]
    .filter(Boolean)
    .join(', ');

function SourceItem({ source, idPrefix }: { source: AnswerSource; idPrefix: string }) {
  const place = placeOf(source);
  return (
    <List.Item id={`${idPrefix}-source-${source.n}`}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        <Text span fw={600}>
          [{source.n}]
        </Text>{' '}
        <SafeLink href={source.url} inherit>
          {source.title}
        </SafeLink>
      </Text>
      <Text size="xs" c="dimmed">
        {[place, `score ${source.score.toFixed(3)}`].filter(Boolean).join(' · ')}
      </Text>
    </List.Item>
  );
}

/** A finished answer: its text with linked markers, how it was made, how long each stage took, and its sources. */
export function AnswerView({ result, idPrefix }: { result: AnswerResult; idPrefix: string }) {
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Badge color={KIND_COLORS[result.kind]} variant="light">
          {KIND_LABELS[result.kind]}
        </Badge>
        {result.fallback && (
          <Badge color="orange" variant="outline">
            Fallback: a person would be offered
          </Badge>
        )}
      </Group>
      <AnswerText text={result.answer} sources={result.sources} idPrefix={idPrefix} />
      {result.model_error && (
        <Alert color="yellow" icon={<IconAlertTriangle />} title="The chat model was not used">
          {result.model_error.reason}{' '}
          <Text span size="xs" c="dimmed">
            ({result.model_error.code})
          </Text>
        </Alert>
      )}
      <Text size="xs" c="dimmed" aria-label="Timings">
        Retrieve {Math.round(result.timings.retrieve_ms)} ms · Generate{' '}
        {Math.round(result.timings.generate_ms)} ms · Total {Math.round(result.timings.total_ms)} ms
      </Text>
      {result.sources.length > 0 && (
        <Stack gap={4}>
          <Title order={4} size="h6">
            Sources
          </Title>
          <List spacing={4} listStyleType="none" aria-label="Sources">
            {result.sources.map((source) => (
              <SourceItem key={source.n} source={source} idPrefix={idPrefix} />
            ))}
          </List>
        </Stack>
      )}
    </Stack>
  );
}
