import { Alert, Group, List, NumberInput, Stack, Switch, Text, Textarea } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { type Crawl, plural } from '../../utils/bulk-sources';
import type { UrlListResult } from '../../utils/url-list';

/** The line-by-line problems of pasted text, as a list under the field. */
function LineProblems({ title, problems }: { title: string; problems: { line: number; message: string }[] }) {
  if (problems.length === 0) return null;
  return (
    <Alert color="orange" icon={<IconAlertCircle />} title={title}>
      <List size="sm" spacing={2}>
        {problems.map((problem) => (
          <List.Item key={`${problem.line}-${problem.message}`}>
            Line {problem.line}: {problem.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** Web addresses one per line, and whether (and how far) the pages they link to are read as well. */
export function BulkUrlsPanel({
  urlText,
  urls,
  crawl,
  onUrlTextChange,
  onCrawlChange,
}: {
  urlText: string;
  urls: UrlListResult;
  crawl: Crawl;
  onUrlTextChange: (text: string) => void;
  onCrawlChange: (change: Partial<Crawl>) => void;
}) {
  return (
    <Stack gap="sm">
      <Textarea
        label="Web addresses"
        description="One per line; repeats are dropped."
        placeholder={'https://example.com/help\nhttps://example.com/pricing'}
        rows={6}
        resize="vertical"
        value={urlText}
        onChange={(event) => onUrlTextChange(event.currentTarget.value)}
      />
      {urls.urls.length > 0 && (
        <Text size="sm" aria-live="polite">
          {plural(urls.urls.length, 'address', 'addresses')}
          {urls.duplicates > 0 ? ` (${plural(urls.duplicates, 'repeat', 'repeats')} dropped)` : ''}.
        </Text>
      )}
      <LineProblems title="These lines are not web addresses" problems={urls.problems} />
      <Switch
        label="Also read the pages each links to on the same site"
        description="robots.txt is respected."
        checked={crawl.enabled}
        onChange={(event) => onCrawlChange({ enabled: event.currentTarget.checked })}
      />
      {crawl.enabled && (
        <Group grow align="flex-start" wrap="wrap">
          <NumberInput
            label="Depth"
            description="Links away from each page, 0 to 3."
            min={0}
            max={3}
            allowDecimal={false}
            miw={140}
            value={crawl.depth}
            onChange={(depth) => onCrawlChange({ depth })}
          />
          <NumberInput
            label="Max pages"
            description="Per address, 1 to 500."
            min={1}
            max={500}
            allowDecimal={false}
            miw={140}
            value={crawl.max_pages}
            onChange={(max_pages) => onCrawlChange({ max_pages })}
          />
        </Group>
      )}
    </Stack>
  );
}
