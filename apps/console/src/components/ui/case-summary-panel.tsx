import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import {
  CASE_SUMMARY_SECTION_LABELS,
  CASE_SUMMARY_SECTIONS,
  CASE_SUMMARY_TRIGGER_LABELS,
  type CaseSummary,
  type CaseSummarySentiment,
} from '@omnibot/contracts';
import { formatDateTime } from '../../lib/dates';

const SENTIMENT_COLORS: Record<CaseSummarySentiment, string> = {
  positive: 'green',
  neutral: 'gray',
  negative: 'red',
};

/**
 * A case summary: its sections as labelled lines, who wrote it (a model or the transcript) and when. A summary with
 * no section to show draws nothing, so an empty card never passes for a case with nothing to read.
 */
export function CaseSummaryPanel({
  summary,
  title = 'Case summary',
}: {
  summary: CaseSummary;
  title?: string;
}) {
  const { sections } = summary;
  const shown = CASE_SUMMARY_SECTIONS.filter((section) => (sections[section] ?? '') !== '');
  if (shown.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label={title}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text fw={600} size="sm">
            {title}
          </Text>
          <Text size="xs" c="dimmed">
            {CASE_SUMMARY_TRIGGER_LABELS[summary.trigger]} ·{' '}
            {summary.method === 'model'
              ? `by ${summary.model_name ?? 'a chat model'}`
              : 'from the transcript'}{' '}
            · {formatDateTime(summary.created_at)}
          </Text>
        </Group>
        <Stack gap={4} component="dl" m={0}>
          {shown.map((section) => {
            const value = sections[section] ?? '';
            return (
              <Group key={section} gap="xs" align="baseline" wrap="nowrap">
                <Text component="dt" size="sm" c="dimmed" miw={96}>
                  {CASE_SUMMARY_SECTION_LABELS[section]}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {section === 'sentiment' ? (
                    <Badge variant="light" color={SENTIMENT_COLORS[value as CaseSummarySentiment]}>
                      {value}
                    </Badge>
                  ) : (
                    value
                  )}
                </Text>
              </Group>
            );
          })}
        </Stack>
      </Stack>
    </Paper>
  );
}
