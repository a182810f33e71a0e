import { Alert, Button, Card, Group, Stack, Tabs } from '@mantine/core';
import { bulkSourcesProblem, BULK_SOURCES_MAX, type CreateSourceBody, parseQaCsv } from '@omnibot/contracts';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { errorMessage } from '../../../lib/error-message';
import type { UploadItem } from '../../../lib/files/upload-queue';
import { useOnUploaded, useUploads } from '../../../lib/files/use-uploads';
import { useAddSources } from '../api/knowledge-api';
import { type Crawl, plural } from '../utils/bulk-sources';
import { parseUrlList } from '../utils/url-list';
import { BulkFilesPanel } from './bulk-sources/bulk-files-panel';
import { BulkQaPanel } from './bulk-sources/bulk-qa-panel';
import { BulkUrlsPanel } from './bulk-sources/bulk-urls-panel';

type BulkTab = 'files' | 'qa' | 'urls';

const number = (value: number | string) => (value === '' ? Number.NaN : Number(value));

/**
 * Adds many sources to a knowledge base in one request, all or none: stored files (picked or uploaded), Q&A
 * pairs from CSV, or web addresses one per line.
 */
export function BulkAddSources({ knowledgeId, onAdded }: { knowledgeId: string; onAdded: () => void }) {
  const [tab, setTab] = useState<BulkTab>('files');
  const [paths, setPaths] = useState<string[]>([]);
  const [uploadIds, setUploadIds] = useState<string[]>([]);
  const [csv, setCsv] = useState('');
  const [csvName, setCsvName] = useState<string | null>(null);
  const [urlText, setUrlText] = useState('');
  const [crawl, setCrawl] = useState<Crawl>({ enabled: false, depth: 1, max_pages: 50 });
  const [error, setError] = useState<string | null>(null);
  const add = useAddSources(knowledgeId);
  const uploads = useUploads();

  const addPaths = useCallback(
    (more: string[]) =>
      setPaths((current) => [...current, ...more.filter((path) => !current.includes(path))]),
    [],
  );
  // Files uploaded from here join the list once they are stored.
  useOnUploaded(
    useCallback(
      (item: UploadItem) => {
        if (uploadIds.includes(item.id) && item.path) addPaths([item.path]);
      },
      [uploadIds, addPaths],
    ),
  );
  const unfinished = uploads.filter((item) => uploadIds.includes(item.id) && item.status !== 'done').length;

  const qa = useMemo(() => parseQaCsv(csv), [csv]);
  const urls = useMemo(() => parseUrlList(urlText), [urlText]);

  const sources: CreateSourceBody[] = useMemo(() => {
    switch (tab) {
      case 'files':
        return paths.map((path) => ({ type: 'file', path }));
      case 'qa':
        return qa.pairs.map(({ question, answer }) => ({ type: 'qa', question, answer }));
      case 'urls':
        return urls.urls.map((url) =>
          crawl.enabled
            ? { type: 'url', url, crawl: { depth: number(crawl.depth), max_pages: number(crawl.max_pages) } }
            : { type: 'url', url },
        );
    }
  }, [tab, paths, qa, urls, crawl]);

  /** Why the active tab cannot be sent yet, in words, or null. */
  const blocker = (): string | null => {
    if (tab === 'files' && unfinished > 0) {
      return unfinished === 1
        ? 'Wait until the upload finishes.'
        : `Wait until ${unfinished} uploads finish.`;
    }
    if (tab === 'qa' && qa.problems.length > 0) return 'Fix the CSV lines listed above, then add the pairs.';
    if (tab === 'urls' && urls.problems.length > 0) return 'Fix or remove the lines listed above.';
    if (sources.length === 0) {
      return {
        files: 'Choose files from your storage or upload some first.',
        qa: 'Paste CSV text or choose a .csv file first.',
        urls: 'Type at least one web address first.',
      }[tab];
    }
    if (sources.length > BULK_SOURCES_MAX) {
      return `At most ${BULK_SOURCES_MAX} sources at once; this would add ${sources.length}. Split them up.`;
    }
    return bulkSourcesProblem({ sources });
  };

  const submit = async () => {
    const problem = blocker();
    setError(problem);
    if (problem) return;
    try {
      const result = await add.mutateAsync({ sources });
      const count = result.items.length;
      notifySuccess(
        count === 1
          ? '1 source was added and is being indexed.'
          : `${count} sources were added and are being indexed.`,
      );
      onAdded();
    } catch (failure) {
      setError(errorMessage(failure));
      notifyError(failure, 'The sources were not added');
    }
  };

  const chooseCsv = async (file: File | null) => {
    if (!file) return;
    setCsv(await file.text());
    setCsvName(file.name);
    setError(null);
  };

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="md">
        <Tabs
          value={tab}
          onChange={(value) => {
            if (value) setTab(value as BulkTab);
            setError(null);
          }}
        >
          <Tabs.List style={{ flexWrap: 'wrap' }}>
            <Tabs.Tab value="files">Files</Tabs.Tab>
            <Tabs.Tab value="qa">Q&A from CSV</Tabs.Tab>
            <Tabs.Tab value="urls">Web pages</Tabs.Tab>
          </Tabs.List>

          <Tabs.Panel value="files" pt="md">
            <BulkFilesPanel
              paths={paths}
              uploadIds={uploadIds}
              onAddPaths={addPaths}
              onRemovePath={(path) => setPaths((current) => current.filter((item) => item !== path))}
              onEnqueued={(ids) => setUploadIds((current) => [...current, ...ids])}
            />
          </Tabs.Panel>

          <Tabs.Panel value="qa" pt="md">
            <BulkQaPanel
              csv={csv}
              csvName={csvName}
              qa={qa}
              onCsvChange={(text) => {
                setCsv(text);
                setError(null);
              }}
              onChooseCsv={(file) => void chooseCsv(file)}
            />
          </Tabs.Panel>

          <Tabs.Panel value="urls" pt="md">
            <BulkUrlsPanel
              urlText={urlText}
              urls={urls}
              crawl={crawl}
              onUrlTextChange={(text) => {
                setUrlText(text);
                setError(null);
              }}
              onCrawlChange={(change) => setCrawl((current) => ({ ...current, ...change }))}
            />
          </Tabs.Panel>
        </Tabs>

        {error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Nothing was added">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            onClick={() => void submit()}
            loading={add.isPending}
            leftSection={<IconPlus size={16} aria-hidden="true" />}
          >
            {sources.length > 0 ? `Add ${plural(sources.length, 'source', 'sources')}` : 'Add sources'}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
