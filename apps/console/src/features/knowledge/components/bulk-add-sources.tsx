import {
  ActionIcon,
  Alert,
  Button,
  Card,
  FileButton,
  Group,
  List,
  NumberInput,
  ScrollArea,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  Textarea,
} from '@mantine/core';
import {
  bulkSourcesProblem,
  BULK_SOURCES_MAX,
  type CreateSourceBody,
  KNOWLEDGE_FILE_EXTENSIONS,
  parseQaCsv,
} from '@omnibot/contracts';
import { IconAlertCircle, IconFileSpreadsheet, IconFolderOpen, IconPlus, IconX } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { FilePickerModal } from '../../../components/file-picker/file-picker-modal';
import { UploadDropzone } from '../../../components/uploads/upload-dropzone';
import { UploadList } from '../../../components/uploads/upload-list';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { errorMessage } from '../../../lib/error-message';
import type { UploadItem } from '../../../lib/files/upload-queue';
import { useOnUploaded, useUploads } from '../../../lib/files/use-uploads';
import { useAddSources } from '../api/knowledge-api';
import { KNOWLEDGE_FILE_LABEL } from '../utils/source-values';
import { parseUrlList } from '../utils/url-list';

type BulkTab = 'files' | 'qa' | 'urls';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

interface Crawl {
  enabled: boolean;
  depth: number | string;
  max_pages: number | string;
}

const number = (value: number | string) => (value === '' ? Number.NaN : Number(value));

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

/**
 * Adds many sources to a knowledge base in one request, all or none: stored files (picked or uploaded), Q&A
 * pairs from CSV, or web addresses one per line.
 */
export function BulkAddSources({ knowledgeId, onAdded }: { knowledgeId: string; onAdded: () => void }) {
  const [tab, setTab] = useState<BulkTab>('files');
  const [paths, setPaths] = useState<string[]>([]);
  const [uploadIds, setUploadIds] = useState<string[]>([]);
  const [isPicking, setIsPicking] = useState(false);
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

  const csvRows = [
    ...qa.pairs.map((pair) => ({ line: pair.line, pair, problem: null })),
    ...qa.problems.map((problem) => ({ line: problem.line, pair: null, problem: problem.message })),
  ].sort((a, b) => a.line - b.line);

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
            <Stack gap="sm">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text size="sm" c="dimmed">
                  {KNOWLEDGE_FILE_LABEL} files of your storage.
                </Text>
                <Button
                  variant="default"
                  leftSection={<IconFolderOpen size={16} aria-hidden="true" />}
                  onClick={() => setIsPicking(true)}
                >
                  Choose from storage
                </Button>
              </Group>
              {paths.length === 0 ? (
                <Text size="sm">No files yet: choose some from your storage or upload them below.</Text>
              ) : (
                <Stack
                  gap={4}
                  component="ul"
                  aria-label="Chosen files"
                  style={{ listStyle: 'none', margin: 0, padding: 0 }}
                >
                  {paths.map((path) => (
                    <Group key={path} component="li" gap="xs" wrap="nowrap" justify="space-between">
                      <Text size="sm" truncate style={{ minWidth: 0 }}>
                        {path}
                      </Text>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={`Remove ${path}`}
                        onClick={() => setPaths((current) => current.filter((item) => item !== path))}
                      >
                        <IconX size={16} aria-hidden="true" />
                      </ActionIcon>
                    </Group>
                  ))}
                </Stack>
              )}
              <UploadDropzone
                folder="knowledge"
                onEnqueued={(ids) => setUploadIds((current) => [...current, ...ids])}
              />
              <UploadList filter={(item) => uploadIds.includes(item.id)} />
              <Text size="xs" c="dimmed">
                Uploaded files are kept in the folder “knowledge” of the file manager and join the list when
                they are stored.
              </Text>
              <FilePickerModal
                opened={isPicking}
                onClose={() => setIsPicking(false)}
                multiple
                accept={KNOWLEDGE_FILE_EXTENSIONS}
                acceptLabel={KNOWLEDGE_FILE_LABEL}
                onPick={(files) => addPaths(files.map((file) => file.path))}
              />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="qa" pt="md">
            <Stack gap="sm">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text size="sm" c="dimmed">
                  Two columns, question then answer; a header row is recognised.
                </Text>
                <FileButton onChange={(file) => void chooseCsv(file)} accept=".csv,text/csv">
                  {(props) => (
                    <Button
                      variant="default"
                      leftSection={<IconFileSpreadsheet size={16} aria-hidden="true" />}
                      {...props}
                    >
                      Choose a .csv file
                    </Button>
                  )}
                </FileButton>
              </Group>
              <Textarea
                label="CSV text"
                description={csvName ? `Read from ${csvName}; edit it here if needed.` : undefined}
                placeholder={'question,answer\n"Do you ship abroad?","Yes, to the EU and the UK."'}
                rows={6}
                resize="vertical"
                value={csv}
                onChange={(event) => {
                  setCsv(event.currentTarget.value);
                  setError(null);
                }}
              />
              {csvRows.length > 0 && (
                <>
                  <Text size="sm" aria-live="polite">
                    {plural(qa.pairs.length, 'pair', 'pairs')} read
                    {qa.problems.length > 0
                      ? `, ${plural(qa.problems.length, 'line', 'lines')} with problems`
                      : ''}
                    .
                  </Text>
                  <ScrollArea.Autosize mah={360} type="auto">
                    <Table striped withTableBorder aria-label="Q&A pairs" miw={320}>
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th w={56}>Line</Table.Th>
                          <Table.Th>Question</Table.Th>
                          <Table.Th>Answer</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {csvRows.map((row) =>
                          row.pair ? (
                            <Table.Tr key={`pair-${row.line}`}>
                              <Table.Td>{row.line}</Table.Td>
                              <Table.Td>
                                <Text size="sm" lineClamp={3}>
                                  {row.pair.question}
                                </Text>
                              </Table.Td>
                              <Table.Td>
                                <Text size="sm" lineClamp={3}>
                                  {row.pair.answer}
                                </Text>
                              </Table.Td>
                            </Table.Tr>
                          ) : (
                            <Table.Tr
                              key={`problem-${row.line}`}
                              bg="var(--mantine-color-red-light)"
                              data-problem="true"
                            >
                              <Table.Td>{row.line}</Table.Td>
                              <Table.Td colSpan={2}>
                                <Text size="sm" c="var(--mantine-color-red-light-color)">
                                  {row.problem}
                                </Text>
                              </Table.Td>
                            </Table.Tr>
                          ),
                        )}
                      </Table.Tbody>
                    </Table>
                  </ScrollArea.Autosize>
                </>
              )}
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="urls" pt="md">
            <Stack gap="sm">
              <Textarea
                label="Web addresses"
                description="One per line; repeats are dropped."
                placeholder={'https://example.com/help\nhttps://example.com/pricing'}
                rows={6}
                resize="vertical"
                value={urlText}
                onChange={(event) => {
                  setUrlText(event.currentTarget.value);
                  setError(null);
                }}
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
                onChange={(event) => {
                  const enabled = event.currentTarget.checked;
                  setCrawl((current) => ({ ...current, enabled }));
                }}
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
                    onChange={(depth) => setCrawl((current) => ({ ...current, depth }))}
                  />
                  <NumberInput
                    label="Max pages"
                    description="Per address, 1 to 500."
                    min={1}
                    max={500}
                    allowDecimal={false}
                    miw={140}
                    value={crawl.max_pages}
                    onChange={(max_pages) => setCrawl((current) => ({ ...current, max_pages }))}
                  />
                </Group>
              )}
            </Stack>
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
