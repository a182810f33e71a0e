import {
  Alert,
  Button,
  Center,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { FileItem } from '@omnibot/contracts';
import { useQuery } from '@tanstack/react-query';
import { IconAlertCircle, IconPhotoOff, IconSearch } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import {
  getAllFoldersQueryOptions,
  getImagesQueryOptions,
  MAX_FOLDERS_WALKED,
} from '../../lib/files/files-api';
import { storageErrorMessage } from '../../lib/files/storage-errors';
import { ImageGrid } from './image-grid';
import { arrangeImages, IMAGE_SORTS, type ImageSort } from './image-sort';

const ALL = '*';
const ROOT = '/';

/** Folder choice as a Select value: '*' every folder, '/' the root, otherwise the folder's path. */
const folderToValue = (folder: string | null) => (folder === null ? ALL : folder === '' ? ROOT : folder);
const valueToFolder = (value: string | null) =>
  value === null || value === ALL ? null : value === ROOT ? '' : value;

interface ImageBrowserProps {
  /** null = images of every folder. */
  folder: string | null;
  onFolderChange: (folder: string | null) => void;
  selectedPath?: string | null;
  onSelect?: (image: FileItem) => void;
  renderActions?: (image: FileItem) => ReactNode;
  /** What to suggest when there are no images (e.g. where to drop some). */
  emptyHint: ReactNode;
  pageSize?: number;
}

/** The tenant's images (by extension, IMAGE_EXTENSIONS) of one folder or all of them: search, order, pages. */
export function ImageBrowser({
  folder,
  onFolderChange,
  selectedPath,
  onSelect,
  renderActions,
  emptyHint,
  pageSize = 24,
}: ImageBrowserProps) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<ImageSort>('name');
  const [page, setPage] = useState(1);
  const images = useQuery(getImagesQueryOptions(folder));
  const folders = useQuery(getAllFoldersQueryOptions());

  const folderOptions = [
    { value: ALL, label: 'All folders' },
    { value: ROOT, label: 'Root folder' },
    ...(folders.data?.paths ?? []).map((path) => ({ value: path, label: path })),
  ];
  const arranged = arrangeImages(images.data?.images ?? [], query, sort);
  const pageCount = Math.max(1, Math.ceil(arranged.length / pageSize));
  const currentPage = Math.min(page, pageCount);
  const shown = arranged.slice((currentPage - 1) * pageSize, currentPage * pageSize);

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Folder"
          data={folderOptions}
          value={folderToValue(folder)}
          onChange={(value) => {
            setPage(1);
            onFolderChange(valueToFolder(value));
          }}
          allowDeselect={false}
          searchable
          nothingFoundMessage="No folder by that name"
          w={{ base: '100%', xs: 220 }}
        />
        <TextInput
          label="Search images"
          placeholder="Name or folder"
          value={query}
          onChange={(event) => {
            setPage(1);
            setQuery(event.currentTarget.value);
          }}
          leftSection={<IconSearch size={16} />}
          style={{ flex: '1 1 12rem' }}
        />
        <Select
          label="Order"
          data={IMAGE_SORTS}
          value={sort}
          onChange={(value) => setSort(IMAGE_SORTS.find((option) => option.value === value)?.value ?? 'name')}
          allowDeselect={false}
          w={{ base: '100%', xs: 170 }}
        />
      </Group>

      {images.isPending ? (
        <SimpleGrid
          cols={{ base: 2, xs: 3, sm: 4, lg: 5, xl: 6 }}
          spacing="sm"
          aria-busy="true"
          aria-label="Loading images"
        >
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} h={170} radius="md" />
          ))}
        </SimpleGrid>
      ) : images.isError ? (
        <Alert color="red" icon={<IconAlertCircle />} title="The images could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{storageErrorMessage(images.error)}</Text>
            <Button size="xs" variant="light" onClick={() => void images.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : arranged.length === 0 ? (
        <Center py="xl">
          <Stack gap="xs" align="center" maw={420} ta="center">
            <IconPhotoOff size={40} stroke={1.4} color="var(--mantine-color-dimmed)" aria-hidden="true" />
            <Text fw={600}>{query ? 'No image matches your search' : 'No images here yet'}</Text>
            <Text size="sm" c="dimmed">
              {query ? 'Try another name, or clear the search.' : emptyHint}
            </Text>
          </Stack>
        </Center>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {arranged.length === 1 ? '1 image' : `${arranged.length} images`}
            {folder === null ? ' in all folders' : ''}
          </Text>
          <ImageGrid
            images={shown}
            selectedPath={selectedPath}
            onSelect={onSelect}
            renderActions={renderActions}
            showFolder={folder === null}
          />
          {pageCount > 1 && (
            <Group justify="center">
              <Pagination
                total={pageCount}
                value={currentPage}
                onChange={setPage}
                size="sm"
                aria-label="Image pages"
              />
            </Group>
          )}
        </>
      )}
      {images.data?.isTruncated && (
        <Text size="xs" c="dimmed">
          Only the first {MAX_FOLDERS_WALKED} folders were searched; choose a folder to see the images of the
          others.
        </Text>
      )}
    </Stack>
  );
}
