import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { FileNameSchema } from '@omnibot/contracts';
import { z } from 'zod';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { hasErrorCode } from '../../../lib/error-message';
import { storageErrorMessage } from '../../../lib/files/storage-errors';
import { joinPath } from '../../../lib/files/storage-paths';
import { useCreateFolder } from '../api/create-folder';

const FolderNameFormSchema = z.object({ name: FileNameSchema });
const resolve = schemaResolver(FolderNameFormSchema, { sync: true });

function CreateFolderForm({ parent, onDone }: { parent: string; onDone: (path: string) => void }) {
  const createFolder = useCreateFolder();
  const form = useForm({ initialValues: { name: '' }, validate: resolve, validateInputOnBlur: true });

  const onSubmit = async ({ name }: { name: string }) => {
    const path = joinPath(parent, name.trim());
    try {
      await createFolder.mutateAsync({ path });
    } catch (error) {
      if (hasErrorCode(error, 'storage/already-exists') || hasErrorCode(error, 'storage/invalid-argument')) {
        form.setFieldError('name', storageErrorMessage(error));
      }
      notifyError(error, 'The folder was not created');
      return;
    }
    notifySuccess(`Folder “${name.trim()}” created.`);
    onDone(path);
  };

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          Inside {parent ? `“${parent}”` : 'the root folder'}.
        </Text>
        <TextInput label="Folder name" required data-autofocus {...form.getInputProps('name')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onDone('')} type="button">
            Cancel
          </Button>
          <Button type="submit" loading={createFolder.isPending}>
            Create folder
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Creates a folder inside `parent`; `onCreated` receives the new folder's path. */
export function CreateFolderModal({
  opened,
  parent,
  onClose,
  onCreated,
}: {
  opened: boolean;
  parent: string;
  onClose: () => void;
  onCreated: (path: string) => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="New folder">
      <CreateFolderForm
        parent={parent}
        onDone={(path) => {
          if (path) onCreated(path);
          onClose();
        }}
      />
    </Modal>
  );
}
