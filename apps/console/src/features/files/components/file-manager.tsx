import {
  Alert,
  Button,
  Group,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { FileItem } from '@omnibot/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  IconAlertCircle,
  IconFolderPlus,
  IconFolderX,
  IconLayoutGrid,
  IconList,
  IconSearch,
  IconUpload,
} from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { UnfinishedUploads } from '../../../components/uploads/unfinished-uploads';
import { UploadDropzone } from '../../../components/uploads/upload-dropzone';
import { UploadList } from '../../../components/uploads/upload-list';
import { getFolderQueryOptions, getUsageQueryOptions, MAX_LISTING_PAGES } from '../../../lib/files/files-api';
import { hasErrorCode } from '../../../lib/error-message';
import { storageErrorMessage } from '../../../lib/files/storage-errors';
import { useRefreshFilesOnUpload } from '../../../lib/files/use-uploads';
import { useSession } from '../../../lib/session';
import { arrangeEntries, type EntrySort, type FileEntry } from '../utils/file-entries';
import { FILE_TABS, filesForTab, parseFileTab, type FileTab } from '../utils/file-tabs';
import { CreateFolderModal } from './create-folder-modal';
import { DeleteEntryModal, type DeleteTarget } from './delete-entry-modal';
import type { EntryAction } from './entry-actions-menu';
import { FileBreadcrumbs } from './file-breadcrumbs';
import { FileGrid } from './file-grid';
import { FilePreviewModal } from './file-preview-modal';
import { FileTable } from './file-table';
import { FolderTree } from './folder-tree';
import { MoveFileModal } from './move-file-modal';
import { RenameEntryModal, type RenameTarget } from './rename-entry-modal';
import { ShareLinkModal } from './share-link-modal';
import { StorageUsage } from './storage-usage';

const PAGE_SIZE = { list: 50, grid: 48 } as const;
type View = keyof typeof PAGE_SIZE;

const EMPTY_TAB_TEXT: Record<Exclude<FileTab, 'all'>, string> = {
  images: 'No images (jpg, jpeg, png, gif, bmp, svg, webp) in this folder.',
  audio: 'No audio files (mp3, wav) in this folder.',
  documents: 'No documents in this folder (every file but .txt and .doc counts as one).',
};

const SORT_OPTIONS = [
  { value: 'name:asc', label: 'Name, A to Z' },
  { value: 'name:desc', label: 'Name, Z to A' },
  { value: 'created:desc', label: 'Newest first' },
  { value: 'created:asc', label: 'Oldest first' },
  { value: 'size:desc', label: 'Largest first' },
  { value: 'size:asc', label: 'Smallest first' },
  { value: 'type:asc', label: 'Type' },
];

type Dialog =
  | { type: 'create-folder' }
  | { type: 'preview'; file: FileItem }
  | { type: 'share'; path: string }
  | { type: 'rename'; target: RenameTarget }
  | { type: 'move'; path: string }
  | { type: 'delete'; target: DeleteTarget }
  | null;

function EmptyState({
  title,
  children,
  actions,
}: {
  title: string;
  children: React.ReactNode;
  actions?: React.ReactNode;
}) {
  return (
    <Stack align="center" gap="xs" py="xl" ta="center">
      <Text fw={600}>{title}</Text>
      <Text size="sm" c="dimmed" maw={460}>
        {children}
      </Text>
      {actions && (
        <Group gap="sm" mt="xs">
          {actions}
        </Group>
      )}
    </Stack>
  );
}

/**
 * The File Manager of /file: folder tree and path, tabs by kind (the contracts' extension filters), list or grid,
 * drag-and-drop resumable uploads, previews, links, rename, move, delete and the storage quota.
 * The folder, tab and view live in the query string (?path=docs/2026&tab=images&view=grid).
 */
export function FileManager() {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const path = searchParams.get('path') ?? '';
  const tab = parseFileTab(searchParams.get('tab'));
  const view: View = searchParams.get('view') === 'grid' ? 'grid' : 'list';
  const session = useSession();
  const canWrite = session?.profile.role !== 'agent';

  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<EntrySort>({ column: 'name', direction: 'asc' });
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [shownPath, setShownPath] = useState(path);
  const openFileChooser = useRef<() => void>(null);

  // A new folder starts on its first page, unsearched.
  if (shownPath !== path) {
    setShownPath(path);
    setPage(1);
    setQuery('');
  }

  const listing = useQuery(getFolderQueryOptions(path));
  const usage = useQuery(getUsageQueryOptions());
  useRefreshFilesOnUpload();

  const hrefFor = (target: string) => {
    const params = new URLSearchParams(searchParams);
    if (target) params.set('path', target);
    else params.delete('path');
    const search = params.toString();
    return search ? `/file?${search}` : '/file';
  };
  const setParam = (name: string, value: string | null) => {
    const params = new URLSearchParams(searchParams);
    if (value) params.set(name, value);
    else params.delete(name);
    setSearchParams(params);
    setPage(1);
  };

  const files = listing.data?.files ?? [];
  const folders = listing.data?.folders ?? [];
  const entries = arrangeEntries(folders, filesForTab(files, tab), query, sort);
  const pageSize = PAGE_SIZE[view];
  const pageCount = Math.max(1, Math.ceil(entries.length / pageSize));
  const currentPage = Math.min(page, pageCount);
  const shown = entries.slice((currentPage - 1) * pageSize, currentPage * pageSize);

  const onAction = (action: EntryAction, entry: FileEntry) => {
    if (entry.kind === 'folder') {
      const target = { kind: 'folder' as const, path: entry.folder.path };
      if (action === 'open') void navigate(hrefFor(entry.folder.path));
      else if (action === 'rename') setDialog({ type: 'rename', target });
      else if (action === 'delete') setDialog({ type: 'delete', target });
      return;
    }
    const { file } = entry;
    const target = { kind: 'file' as const, path: file.path };
    if (action === 'preview') setDialog({ type: 'preview', file });
    else if (action === 'share') setDialog({ type: 'share', path: file.path });
    else if (action === 'rename') setDialog({ type: 'rename', target });
    else if (action === 'move') setDialog({ type: 'move', path: file.path });
    else if (action === 'delete') setDialog({ type: 'delete', target });
  };
  const closeDialog = () => setDialog(null);
  const isFolderMissing = hasErrorCode(listing.error, 'storage/object-not-found');

  const newFolderButton = canWrite && (
    <Button
      variant="default"
      leftSection={<IconFolderPlus size={16} />}
      onClick={() => setDialog({ type: 'create-folder' })}
    >
      New folder
    </Button>
  );
  const uploadButton = canWrite && (
    <Button leftSection={<IconUpload size={16} />} onClick={() => openFileChooser.current?.()}>
      Upload files
    </Button>
  );

  let body: React.ReactNode;
  if (listing.isPending) {
    body = (
      <Stack gap="xs" aria-busy="true" aria-label="Loading the folder">
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} h={36} radius="sm" />
        ))}
      </Stack>
    );
  } else if (isFolderMissing) {
    body = (
      <EmptyState
        title="This folder does not exist"
        actions={
          <Button component={Link} to={hrefFor('')} variant="light" leftSection={<IconFolderX size={16} />}>
            Go to all files
          </Button>
        }
      >
        It may have been renamed, moved or deleted.
      </EmptyState>
    );
  } else if (listing.isError) {
    body = (
      <Alert color="red" icon={<IconAlertCircle />} title="The folder could not be loaded">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{storageErrorMessage(listing.error)}</Text>
          <Button size="xs" variant="light" onClick={() => void listing.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (folders.length === 0 && files.length === 0) {
    body = (
      <EmptyState
        title="This folder is empty"
        actions={
          <>
            {uploadButton}
            {newFolderButton}
          </>
        }
      >
        {canWrite
          ? 'Drop files on the area above to upload them here, or create a folder to organise them.'
          : 'Nothing has been stored here yet.'}
      </EmptyState>
    );
  } else if (entries.length === 0) {
    body = query ? (
      <EmptyState title="Nothing matches your search">Try another name, or clear the search.</EmptyState>
    ) : (
      <EmptyState title={`No ${FILE_TABS.find((t) => t.value === tab)?.label.toLowerCase()} here`}>
        {tab === 'all' ? '' : EMPTY_TAB_TEXT[tab]}{' '}
        {canWrite ? 'Drop some on the area above to upload them.' : ''}
      </EmptyState>
    );
  } else {
    body = (
      <Stack gap="sm">
        {view === 'list' ? (
          <FileTable
            entries={shown}
            sort={sort}
            onSortChange={setSort}
            hrefFor={hrefFor}
            canWrite={canWrite}
            onAction={onAction}
          />
        ) : (
          <FileGrid entries={shown} hrefFor={hrefFor} canWrite={canWrite} onAction={onAction} />
        )}
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            {entries.length === 1 ? '1 item' : `${entries.length} items`}
            {pageCount > 1 ? ` · page ${currentPage} of ${pageCount}` : ''}
          </Text>
          {pageCount > 1 && (
            <Pagination
              total={pageCount}
              value={currentPage}
              onChange={setPage}
              size="sm"
              aria-label="Pages"
            />
          )}
        </Group>
        {listing.data.isTruncated && (
          <Text size="xs" c="dimmed">
            This folder holds more than {MAX_LISTING_PAGES * 1000} entries; only the first ones are shown.
            Organise them into subfolders to see the rest.
          </Text>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={4} style={{ flex: '1 1 18rem' }}>
          <Title order={1} size="h2">
            File Manager
          </Title>
          <Text c="dimmed">
            Your organisation&apos;s files: upload, organise, preview and share them.
            {!canWrite && ' Your role can view files but not change them.'}
          </Text>
        </Stack>
        <StorageUsage />
      </Group>

      <UnfinishedUploads />

      <Group align="flex-start" gap="md" wrap="nowrap">
        <Paper withBorder radius="md" p="xs" w={240} visibleFrom="md" style={{ flexShrink: 0 }}>
          <FolderTree currentPath={path} hrefFor={hrefFor} />
        </Paper>

        <Stack gap="md" style={{ flex: 1, minWidth: 0 }}>
          <FileBreadcrumbs path={path} hrefFor={hrefFor} />
          {canWrite && (
            <UploadDropzone
              folder={path}
              maxFileBytes={usage.data?.max_file_bytes}
              openRef={openFileChooser}
            />
          )}
          <UploadList />

          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput
              aria-label="Search this folder"
              placeholder="Search this folder"
              value={query}
              onChange={(event) => {
                setQuery(event.currentTarget.value);
                setPage(1);
              }}
              leftSection={<IconSearch size={16} />}
              style={{ flex: '1 1 12rem' }}
            />
            {view === 'grid' && (
              <Select
                aria-label="Order"
                data={SORT_OPTIONS}
                value={`${sort.column}:${sort.direction}`}
                onChange={(value) => {
                  const [column, direction] = (value ?? 'name:asc').split(':') as [
                    EntrySort['column'],
                    EntrySort['direction'],
                  ];
                  setSort({ column, direction });
                }}
                allowDeselect={false}
                w={170}
              />
            )}
            <SegmentedControl
              aria-label="View"
              value={view}
              onChange={(value) => setParam('view', value === 'grid' ? 'grid' : null)}
              data={[
                {
                  value: 'list',
                  label: (
                    <Group gap={4} wrap="nowrap">
                      <IconList size={16} aria-hidden="true" />
                      List
                    </Group>
                  ),
                },
                {
                  value: 'grid',
                  label: (
                    <Group gap={4} wrap="nowrap">
                      <IconLayoutGrid size={16} aria-hidden="true" />
                      Grid
                    </Group>
                  ),
                },
              ]}
            />
            {newFolderButton}
            {uploadButton}
          </Group>

          <Tabs
            value={tab}
            onChange={(value) => setParam('tab', value === 'all' ? null : value)}
            keepMounted={false}
          >
            <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
              {FILE_TABS.map((option) => (
                <Tabs.Tab key={option.value} value={option.value} style={{ flexShrink: 0 }}>
                  {option.label}
                  {listing.data && (
                    <Text span size="xs" c="dimmed" ml={6}>
                      {option.value === 'all'
                        ? folders.length + files.length
                        : filesForTab(files, option.value).length}
                    </Text>
                  )}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {FILE_TABS.map((option) => (
              <Tabs.Panel key={option.value} value={option.value} pt="md">
                {option.value === tab && body}
              </Tabs.Panel>
            ))}
          </Tabs>
        </Stack>
      </Group>

      <CreateFolderModal
        opened={dialog?.type === 'create-folder'}
        parent={path}
        onClose={closeDialog}
        onCreated={(created) => void navigate(hrefFor(created))}
      />
      <FilePreviewModal file={dialog?.type === 'preview' ? dialog.file : null} onClose={closeDialog} />
      <ShareLinkModal path={dialog?.type === 'share' ? dialog.path : null} onClose={closeDialog} />
      <RenameEntryModal target={dialog?.type === 'rename' ? dialog.target : null} onClose={closeDialog} />
      <MoveFileModal path={dialog?.type === 'move' ? dialog.path : null} onClose={closeDialog} />
      <DeleteEntryModal target={dialog?.type === 'delete' ? dialog.target : null} onClose={closeDialog} />
    </Stack>
  );
}
