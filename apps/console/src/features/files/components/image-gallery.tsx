import { ActionIcon, Button, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { FileItem } from '@omnibot/contracts';
import { useQuery } from '@tanstack/react-query';
import { IconExternalLink, IconLink, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ImageBrowser } from '../../../components/image-picker/image-browser';
import { ImagePicker } from '../../../components/image-picker/image-picker';
import { UnfinishedUploads } from '../../../components/uploads/unfinished-uploads';
import { UploadDropzone } from '../../../components/uploads/upload-dropzone';
import { UploadList } from '../../../components/uploads/upload-list';
import { getUsageQueryOptions } from '../../../lib/files/files-api';
import { useRefreshFilesOnUpload } from '../../../lib/files/use-uploads';
import { useSession } from '../../../lib/session';
import { DeleteEntryModal, type DeleteTarget } from './delete-entry-modal';
import { ShareLinkModal } from './share-link-modal';

/**
 * /bot/gallery: the tenant's images (by image extension) of every folder or one (?folder=), with
 * upload, links and delete. "Copy an image link" goes through the image picker the bot screens use.
 */
export function ImageGallery() {
  const [searchParams, setSearchParams] = useSearchParams();
  const raw = searchParams.get('folder');
  const folder = raw === null ? null : raw === '/' ? '' : raw;
  const session = useSession();
  const canWrite = session?.profile.role !== 'agent';
  const usage = useQuery(getUsageQueryOptions());
  const [isPicking, setIsPicking] = useState(false);
  const [sharePath, setSharePath] = useState<string | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<DeleteTarget | null>(null);
  useRefreshFilesOnUpload();

  const setFolder = (next: string | null) => {
    const params = new URLSearchParams(searchParams);
    if (next === null) params.delete('folder');
    else params.set('folder', next === '' ? '/' : next);
    setSearchParams(params);
  };

  const actions = (image: FileItem) => (
    <>
      <Tooltip label="Copy link" withArrow>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Copy link to ${image.name}`}
          onClick={() => setSharePath(image.path)}
        >
          <IconLink size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Open" withArrow>
        <ActionIcon
          variant="subtle"
          color="gray"
          component="a"
          href={image.url}
          target="_blank"
          rel="noopener"
          aria-label={`Open ${image.name}`}
        >
          <IconExternalLink size={16} />
        </ActionIcon>
      </Tooltip>
      {canWrite && (
        <Tooltip label="Delete" withArrow>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Delete ${image.name}`}
            onClick={() => setDeleteTarget({ kind: 'file', path: image.path })}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={4} style={{ flex: '1 1 18rem' }}>
          <Title order={1} size="h2">
            Images
          </Title>
          <Text c="dimmed">
            The images your bots can use as avatar, logo and launcher icons. Files ending in jpg, jpeg, png,
            gif, bmp, svg or webp count as images.
          </Text>
        </Stack>
        <Button variant="light" leftSection={<IconLink size={16} />} onClick={() => setIsPicking(true)}>
          Copy an image link
        </Button>
      </Group>

      <UnfinishedUploads />
      {canWrite && (
        <UploadDropzone folder={folder ?? ''} accept="images" maxFileBytes={usage.data?.max_file_bytes} />
      )}
      <UploadList />

      <ImageBrowser
        folder={folder}
        onFolderChange={setFolder}
        renderActions={actions}
        emptyHint={
          canWrite
            ? `Drop images on the area above to upload them to ${folder ? `“${folder}”` : 'the root folder'}.`
            : 'Nothing has been uploaded here yet.'
        }
      />

      <ImagePicker
        opened={isPicking}
        onClose={() => setIsPicking(false)}
        title="Choose the image to link to"
        confirmLabel="Get its link"
        initialFolder={folder}
        onPick={(image) => setSharePath(image.path)}
      />
      <ShareLinkModal path={sharePath} onClose={() => setSharePath(null)} />
      <DeleteEntryModal target={deleteTarget} onClose={() => setDeleteTarget(null)} />
    </Stack>
  );
}
