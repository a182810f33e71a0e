import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { extensionOf, FileNameSchema } from '@omnibot/contracts';
import { z } from 'zod';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { hasErrorCode } from '../../../lib/error-message';
import { storageErrorMessage } from '../../../lib/files/storage-errors';
import { baseNameOf } from '../../../lib/files/storage-paths';
import { useRenameEntry } from '../api/rename-entry';

const RenameFormSchema = z.object({ name: FileNameSchema });
const resolve = schemaResolver(RenameFormSchema, { sync: true });

export interface RenameTarget {
  kind: 'file' | 'folder';
  path: string;
}

function RenameForm({ target, onClose }: { target: RenameTarget; onClose: () => void }) {
  const rename = useRenameEntry();
  const current = baseNameOf(target.path);
  const form = useForm({ initialValues: { name: current }, validate: resolve, validateInputOnBlur: true });
  const typed = form.getValues().name.trim();
  const changesType = target.kind === 'file' && typed !== '' && extensionOf(typed) !== extensionOf(current);

  const onSubmit = async ({ name }: { name: string }) => {
    const next = name.trim();
    if (next === current) {
      onClose();
      return;
    }
    try {
      await rename.mutateAsync({ kind: target.kind, path: target.path, name: next });
    } catch (error) {
      if (hasErrorCode(error, 'storage/already-exists') || hasErrorCode(error, 'storage/invalid-argument')) {
        form.setFieldError('name', storageErrorMessage(error));
      }
      notifyError(error, `“${current}” was not renamed`);
      return;
    }
    notifySuccess(`Renamed “${current}” to “${next}”.`);
    onClose();
  };

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack>
        <TextInput
          label={target.kind === 'file' ? 'File name' : 'Folder name'}
          required
          data-autofocus
          description={
            changesType ? 'The extension changes: the tabs (Images, Audio, Documents) go by it.' : undefined
          }
          {...form.getInputProps('name')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} type="button">
            Cancel
          </Button>
          <Button type="submit" loading={rename.isPending}>
            Rename
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function RenameEntryModal({ target, onClose }: { target: RenameTarget | null; onClose: () => void }) {
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title={target ? `Rename ${target.kind === 'file' ? 'file' : 'folder'}` : ''}
    >
      {target && <RenameForm target={target} onClose={onClose} />}
    </Modal>
  );
}
