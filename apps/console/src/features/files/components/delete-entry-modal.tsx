import { Alert, Button, Checkbox, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { getFolderPage } from '../../../lib/files/files-api';
import { hasErrorCode } from '../../../lib/error-message';
import { baseNameOf } from '../../../lib/files/storage-paths';
import { useDeleteEntry } from '../api/delete-entry';

export interface DeleteTarget {
  kind: 'file' | 'folder';
  path: string;
}

function DeleteBody({
  target,
  onClose,
  onDeleted,
}: {
  target: DeleteTarget;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteEntry();
  const name = baseNameOf(target.path);
  const isFolder = target.kind === 'folder';
  // Does the folder hold anything? One entry is enough to know.
  const peek = useQuery({
    queryKey: ['files', 'peek', target.path],
    queryFn: ({ signal }) => getFolderPage({ path: target.path, page_size: 1 }, { signal }),
    enabled: isFolder,
    staleTime: 0,
  });
  const [foundContents, setFoundContents] = useState(false);
  const [isConfirmed, setIsConfirmed] = useState(false);
  const hasContents =
    foundContents || (peek.data !== undefined && peek.data.items.length + peek.data.prefixes.length > 0);
  const isChecking = isFolder && peek.isPending;

  const onDelete = async () => {
    try {
      await remove.mutateAsync({ kind: target.kind, path: target.path, recursive: hasContents });
    } catch (error) {
      // Something was added since we looked: ask for the explicit confirmation first.
      if (hasErrorCode(error, 'storage/folder-not-empty')) setFoundContents(true);
      notifyError(error, `“${name}” was not deleted`);
      return;
    }
    notifySuccess(isFolder ? `Folder “${name}” deleted.` : `“${name}” deleted.`);
    onDeleted?.();
    onClose();
  };

  return (
    <Stack>
      {isChecking ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">Looking inside the folder…</Text>
        </Group>
      ) : hasContents ? (
        <>
          <Alert color="red" icon={<IconAlertTriangle />} title="This folder is not empty">
            Every file and folder inside “{name}” will be deleted with it. This cannot be undone.
          </Alert>
          <Checkbox
            label={`Yes, delete “${name}” and everything in it`}
            checked={isConfirmed}
            onChange={(event) => setIsConfirmed(event.currentTarget.checked)}
          />
        </>
      ) : (
        <Text size="sm">
          {isFolder ? `The empty folder “${name}” will be deleted.` : `“${name}” will be deleted.`} This
          cannot be undone.
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          color="red"
          onClick={() => void onDelete()}
          loading={remove.isPending}
          disabled={isChecking || (hasContents && !isConfirmed)}
        >
          {hasContents ? 'Delete folder and contents' : 'Delete'}
        </Button>
      </Group>
    </Stack>
  );
}

/** Confirms and deletes a file or folder; a folder with contents needs an explicit tick first. */
export function DeleteEntryModal({
  target,
  onClose,
  onDeleted,
}: {
  target: DeleteTarget | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title={
        target ? `Delete ${target.kind === 'folder' ? 'folder' : 'file'} “${baseNameOf(target.path)}”?` : ''
      }
    >
      {target && <DeleteBody target={target} onClose={onClose} onDeleted={onDeleted} />}
    </Modal>
  );
}
