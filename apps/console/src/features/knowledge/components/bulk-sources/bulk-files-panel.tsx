import { ActionIcon, Button, Group, Stack, Text } from '@mantine/core';
import { KNOWLEDGE_FILE_EXTENSIONS } from '@omnibot/contracts';
import { IconFolderOpen, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { FilePickerModal } from '../../../../components/file-picker/file-picker-modal';
import { UploadDropzone } from '../../../../components/uploads/upload-dropzone';
import { UploadList } from '../../../../components/uploads/upload-list';
import { KNOWLEDGE_FILE_LABEL } from '../../utils/source-values';

/** The stored files chosen as sources: picked from storage or uploaded here, each removable. */
export function BulkFilesPanel({
  paths,
  uploadIds,
  onAddPaths,
  onRemovePath,
  onEnqueued,
}: {
  paths: string[];
  uploadIds: string[];
  onAddPaths: (paths: string[]) => void;
  onRemovePath: (path: string) => void;
  onEnqueued: (ids: string[]) => void;
}) {
  const [isPicking, setIsPicking] = useState(false);
  return (
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
                onClick={() => onRemovePath(path)}
              >
                <IconX size={16} aria-hidden="true" />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
      <UploadDropzone folder="knowledge" onEnqueued={onEnqueued} />
      <UploadList filter={(item) => uploadIds.includes(item.id)} />
      <Text size="xs" c="dimmed">
        Uploaded files are kept in the folder “knowledge” of the file manager and join the list when they are
        stored.
      </Text>
      <FilePickerModal
        opened={isPicking}
        onClose={() => setIsPicking(false)}
        multiple
        accept={KNOWLEDGE_FILE_EXTENSIONS}
        acceptLabel={KNOWLEDGE_FILE_LABEL}
        onPick={(files) => onAddPaths(files.map((file) => file.path))}
      />
    </Stack>
  );
}
