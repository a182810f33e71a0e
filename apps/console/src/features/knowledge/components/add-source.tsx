import {
  Button,
  Card,
  Group,
  NumberInput,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { type CreateSourceBody, CreateSourceBodySchema, KNOWLEDGE_FILE_EXTENSIONS } from '@omnibot/contracts';
import { IconFolderOpen, IconPlus } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { FilePickerModal } from '../../../components/file-picker/file-picker-modal';
import { UploadDropzone } from '../../../components/uploads/upload-dropzone';
import { UploadList } from '../../../components/uploads/upload-list';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import type { UploadItem } from '../../../lib/files/upload-queue';
import { useOnUploaded } from '../../../lib/files/use-uploads';
import { useAddSource } from '../api/knowledge-api';
import { KNOWLEDGE_FILE_LABEL } from '../utils/source-values';

interface SourceFormValues {
  title: string;
  text: string;
  question: string;
  answer: string;
  url: string;
  crawl: boolean;
  depth: number | string;
  max_pages: number | string;
  include: string;
  exclude: string;
  sitemap: string;
  path: string;
}

type SourceTab = 'text' | 'qa' | 'url' | 'sitemap' | 'file';

const EMPTY: SourceFormValues = {
  title: '',
  text: '',
  question: '',
  answer: '',
  url: '',
  crawl: false,
  depth: 1,
  max_pages: 50,
  include: '',
  exclude: '',
  sitemap: '',
  path: '',
};

/** Path prefixes typed one per line or separated by commas. */
const prefixes = (value: string) =>
  value
    .split(/[\n,]/)
    .map((prefix) => prefix.trim())
    .filter(Boolean);

const number = (value: number | string) => (value === '' ? Number.NaN : Number(value));

/** The request body the active tab's fields stand for. */
function sourceBodyOf(tab: SourceTab, values: SourceFormValues): CreateSourceBody {
  switch (tab) {
    case 'text':
      return { type: 'text', title: values.title, text: values.text };
    case 'qa':
      return { type: 'qa', question: values.question, answer: values.answer };
    case 'sitemap':
      return { type: 'sitemap', url: values.sitemap };
    case 'file':
      return { type: 'file', path: values.path };
    case 'url': {
      if (!values.crawl) return { type: 'url', url: values.url };
      const include = prefixes(values.include);
      const exclude = prefixes(values.exclude);
      return {
        type: 'url',
        url: values.url,
        crawl: {
          depth: number(values.depth),
          max_pages: number(values.max_pages),
          ...(include.length > 0 ? { include } : {}),
          ...(exclude.length > 0 ? { exclude } : {}),
        },
      };
    }
  }
}

/** Form field of each schema path, per tab. */
const FIELD_OF: Record<SourceTab, Record<string, keyof SourceFormValues>> = {
  text: { title: 'title', text: 'text' },
  qa: { question: 'question', answer: 'answer' },
  sitemap: { url: 'sitemap' },
  file: { path: 'path' },
  url: { url: 'url', 'crawl.depth': 'depth', 'crawl.max_pages': 'max_pages' },
};

function fieldOf(tab: SourceTab, path: PropertyKey[]): keyof SourceFormValues | undefined {
  const key = path.map(String).join('.');
  if (key.startsWith('crawl.include')) return 'include';
  if (key.startsWith('crawl.exclude')) return 'exclude';
  return FIELD_OF[tab][key];
}

/** Adds a source to a knowledge base: pasted text, a Q&A pair, a web page (optionally crawled), a sitemap or a stored file. */
export function AddSource({ knowledgeId }: { knowledgeId: string }) {
  const [tab, setTab] = useState<SourceTab>('text');
  const [uploadIds, setUploadIds] = useState<string[]>([]);
  const [isPicking, setIsPicking] = useState(false);
  const add = useAddSource(knowledgeId);
  const form = useForm<SourceFormValues>({
    initialValues: EMPTY,
    validate: (values) => {
      const result = CreateSourceBodySchema.safeParse(sourceBodyOf(tab, values));
      if (result.success) return {};
      const errors: Partial<Record<keyof SourceFormValues, string>> = {};
      for (const issue of result.error.issues) {
        const field = fieldOf(tab, issue.path);
        if (field && !errors[field]) errors[field] = issue.message;
      }
      return errors;
    },
  });

  // A file uploaded from here is the one the user means: fill in its path once it is stored.
  useOnUploaded(
    useCallback(
      (item: UploadItem) => {
        if (uploadIds.includes(item.id) && item.path) form.setFieldValue('path', item.path);
      },
      // eslint-disable-next-line react-hooks/exhaustive-deps -- form.setFieldValue is stable
      [uploadIds],
    ),
  );

  const submit = async (values: SourceFormValues) => {
    try {
      const source = await add.mutateAsync(CreateSourceBodySchema.parse(sourceBodyOf(tab, values)));
      notifySuccess(
        `"${source.title ?? source.url ?? source.path ?? 'The source'}" was added and is being indexed.`,
      );
      form.reset();
    } catch (error) {
      notifyError(error, 'The source was not added');
    }
  };

  const { crawl } = form.getValues();

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Add source
        </Title>
        <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
          <Tabs
            value={tab}
            onChange={(value) => {
              if (value) setTab(value as SourceTab);
              form.clearErrors();
            }}
            keepMounted={false}
          >
            <Tabs.List style={{ flexWrap: 'wrap' }}>
              <Tabs.Tab value="text">Text</Tabs.Tab>
              <Tabs.Tab value="qa">Q&A</Tabs.Tab>
              <Tabs.Tab value="url">Web page</Tabs.Tab>
              <Tabs.Tab value="sitemap">Sitemap</Tabs.Tab>
              <Tabs.Tab value="file">File</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="text" pt="md">
              <Stack gap="sm">
                <TextInput label="Title" required key={form.key('title')} {...form.getInputProps('title')} />
                <Textarea
                  label="Text"
                  required
                  rows={6}
                  resize="vertical"
                  key={form.key('text')}
                  {...form.getInputProps('text')}
                />
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="qa" pt="md">
              <Stack gap="sm">
                <TextInput
                  label="Question"
                  required
                  key={form.key('question')}
                  {...form.getInputProps('question')}
                />
                <Textarea
                  label="Answer"
                  description="Given word for word when a visitor's question matches this one closely."
                  required
                  rows={3}
                  resize="vertical"
                  key={form.key('answer')}
                  {...form.getInputProps('answer')}
                />
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="url" pt="md">
              <Stack gap="sm">
                <TextInput
                  label="Page address"
                  placeholder="https://example.com/help"
                  required
                  key={form.key('url')}
                  {...form.getInputProps('url')}
                />
                <Switch
                  label="Also read the pages it links to on the same site"
                  description="robots.txt is respected."
                  key={form.key('crawl')}
                  {...form.getInputProps('crawl', { type: 'checkbox' })}
                />
                {crawl && (
                  <>
                    <Group grow align="flex-start" wrap="wrap">
                      <NumberInput
                        label="Depth"
                        description="Links away from the page, 0 to 3."
                        min={0}
                        max={3}
                        allowDecimal={false}
                        miw={140}
                        key={form.key('depth')}
                        {...form.getInputProps('depth')}
                      />
                      <NumberInput
                        label="Max pages"
                        description="1 to 500."
                        min={1}
                        max={500}
                        allowDecimal={false}
                        miw={140}
                        key={form.key('max_pages')}
                        {...form.getInputProps('max_pages')}
                      />
                    </Group>
                    <TextInput
                      label="Only paths starting with"
                      description="Comma-separated, e.g. /docs, /help"
                      key={form.key('include')}
                      {...form.getInputProps('include')}
                    />
                    <TextInput
                      label="Skip paths starting with"
                      description="Comma-separated, e.g. /blog"
                      key={form.key('exclude')}
                      {...form.getInputProps('exclude')}
                    />
                  </>
                )}
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="sitemap" pt="md">
              <TextInput
                label="Sitemap address"
                placeholder="https://example.com/sitemap.xml"
                required
                key={form.key('sitemap')}
                {...form.getInputProps('sitemap')}
              />
            </Tabs.Panel>
            <Tabs.Panel value="file" pt="md">
              <Stack gap="sm">
                <Group align="flex-end" gap="xs" wrap="wrap">
                  <TextInput
                    label="File path in your storage"
                    description="PDF, DOCX, HTML, Markdown, TXT or CSV, e.g. manuals/guide.pdf. Choose one or upload one below to fill this in."
                    required
                    style={{ flex: '1 1 16rem' }}
                    key={form.key('path')}
                    {...form.getInputProps('path')}
                  />
                  <Button
                    variant="default"
                    leftSection={<IconFolderOpen size={16} aria-hidden="true" />}
                    onClick={() => setIsPicking(true)}
                  >
                    Choose from storage
                  </Button>
                </Group>
                <FilePickerModal
                  opened={isPicking}
                  onClose={() => setIsPicking(false)}
                  accept={KNOWLEDGE_FILE_EXTENSIONS}
                  acceptLabel={KNOWLEDGE_FILE_LABEL}
                  onPick={([file]) => {
                    if (file) form.setFieldValue('path', file.path);
                  }}
                />
                <UploadDropzone
                  folder="knowledge"
                  onEnqueued={(ids) => setUploadIds((current) => [...current, ...ids])}
                />
                <UploadList filter={(item) => uploadIds.includes(item.id)} />
                <Text size="xs" c="dimmed">
                  Uploaded files are kept in the folder “knowledge” of the file manager.
                </Text>
              </Stack>
            </Tabs.Panel>
          </Tabs>
          <Group justify="flex-end" mt="md">
            <Button
              type="submit"
              loading={add.isPending}
              leftSection={<IconPlus size={16} aria-hidden="true" />}
            >
              Add source
            </Button>
          </Group>
        </form>
      </Stack>
    </Card>
  );
}
