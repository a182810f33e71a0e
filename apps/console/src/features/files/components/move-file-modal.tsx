import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { getAllFoldersQueryOptions, MAX_FOLDERS_WALKED } from '../../../lib/files/files-api';
import { storageErrorMessage } from '../../../lib/files/storage-errors';
import { baseNameOf, parentOf } from '../../../lib/files/storage-paths';
import { useMoveFile } from '../api/move-file';

const ROOT = '/';

function MoveForm({ path, onClose }: { path: string; onClose: () => void }) {
  const folders = useQuery(getAllFoldersQueryOptions());
  const move = useMoveFile();
  const from = parentOf(path);
  const [target, setTarget] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const name = baseNameOf(path);
  const options = [
    { value: ROOT, label: 'Root folder' },
    ...(folders.data?.paths ?? []).map((p) => ({ value: p, label: p })),
  ].filter((option) => option.value !== (from || ROOT));

  const onSubmit = async () => {
    if (target === null) {
      setError('Choose the folder to move the file to');
      return;
    }
    const folder = target === ROOT ? '' : target;
    try {
      const moved = await move.mutateAsync({ path, folder });
      const renamed = moved.name !== name ? ` as “${moved.name}” (the name was taken)` : '';
      notifySuccess(`Moved “${name}” to ${folder ? `“${folder}”` : 'the root folder'}${renamed}.`);
      onClose();
    } catch (caught) {
      notifyError(caught, `“${name}” was not moved`);
    }
  };

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        From {from ? `“${from}”` : 'the root folder'}.
      </Text>
      {folders.isError ? (
        <Alert color="red" icon={<IconAlertCircle />} title="The folders could not be loaded">
          {storageErrorMessage(folders.error)}
        </Alert>
      ) : (
        <Select
          label="Move to folder"
          placeholder={folders.isPending ? 'Loading folders…' : 'Choose a folder'}
          data={options}
          value={target}
          onChange={(value) => {
            setTarget(value);
            setError(null);
          }}
          searchable
          required
          nothingFoundMessage="No folder by that name"
          error={error}
          disabled={folders.isPending}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
      )}
      {folders.data?.isTruncated && (
        <Text size="xs" c="dimmed">
          Only the first {MAX_FOLDERS_WALKED} folders are offered.
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void onSubmit()} loading={move.isPending}>
          Move
        </Button>
      </Group>
    </Stack>
  );
}

/** Moves one file into another folder chosen from every folder of the tenant. */
export function MoveFileModal({ path, onClose }: { path: string | null; onClose: () => void }) {
  return (
    <Modal opened={path !== null} onClose={onClose} title={path ? `Move ${baseNameOf(path)}` : ''}>
      {path !== null && <MoveForm path={path} onClose={onClose} />}
    </Modal>
  );
}
