import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { type FileItem, extensionOf } from '@omnibot/contracts';
import { IconAlertCircle, IconFile, IconFolder, IconFolderOpen } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/error-message';
import { getFolderQueryOptions } from '../../lib/files/files-api';
import { formatBytes } from '../../lib/files/format';
import { pathTrail } from '../../lib/files/storage-paths';
import { EmptyPanel } from '../ui/empty-panel';

interface FilePickerModalProps {
  opened: boolean;
  onClose: () => void;
  /** The chosen files, in the order they were ticked. */
  onPick: (files: FileItem[]) => void;
  /** Several files (checkboxes) or exactly one. */
  multiple?: boolean;
  /** Extensions (lower case, no dot) that may be chosen; other files are not shown. Every file when omitted. */
  accept?: readonly string[];
  /** What the accepted files are, in words, for the empty state ("PDF, DOCX ... files"). */
  acceptLabel?: string;
  title?: string;
}

const isAccepted = (file: FileItem, accept: readonly string[] | undefined) =>
  !accept || accept.includes(extensionOf(file.name).toLowerCase());

/** A window that browses the organisation's storage folder by folder and picks one or several files. */
export function FilePickerModal({
  opened,
  onClose,
  onPick,
  multiple = false,
  accept,
  acceptLabel = 'matching',
  title = multiple ? 'Choose files' : 'Choose a file',
}: FilePickerModalProps) {
  const [folder, setFolder] = useState('');
  const [chosen, setChosen] = useState<FileItem[]>([]);
  const listing = useQuery({ ...getFolderQueryOptions(folder), enabled: opened });
  const files = listing.data?.files.filter((file) => isAccepted(file, accept)) ?? [];
  const folders = listing.data?.folders ?? [];
  const isChosen = (file: FileItem) => chosen.some((item) => item.path === file.path);

  const toggle = (file: FileItem) => {
    if (!multiple) {
      setChosen(isChosen(file) ? [] : [file]);
      return;
    }
    setChosen((current) =>
      current.some((item) => item.path === file.path)
        ? current.filter((item) => item.path !== file.path)
        : [...current, file],
    );
  };
  const close = () => {
    setChosen([]);
    onClose();
  };
  const pick = () => {
    onPick(chosen);
    close();
  };

  const trail = pathTrail(folder);
  return (
    <Modal opened={opened} onClose={close} title={title} size="lg">
      <Stack gap="sm">
        <nav aria-label="Folder path">
          <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap', rowGap: 4 }}>
            {trail.map((step, index) => {
              const label = step.path === '' ? 'All files' : step.name;
              return index === trail.length - 1 ? (
                <Text key={step.path} size="sm" fw={600} aria-current="page">
                  {label}
                </Text>
              ) : (
                <Anchor
                  key={step.path}
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => setFolder(step.path)}
                >
                  {label}
                </Anchor>
              );
            })}
          </Breadcrumbs>
        </nav>
        {listing.isPending ? (
          <Group justify="center" py="lg">
            <Loader size="sm" aria-label="Loading the folder" />
          </Group>
        ) : listing.isError ? (
          <Alert color="red" icon={<IconAlertCircle />} role="alert" title="The folder could not be listed">
            {errorMessage(listing.error)}
          </Alert>
        ) : folders.length === 0 && files.length === 0 ? (
          <EmptyPanel
            icon={<IconFolderOpen aria-hidden="true" />}
            title={`No ${acceptLabel} files here`}
            description="Open another folder, or upload files in the file manager first."
            order={3}
            size="sm"
          />
        ) : (
          <ScrollArea.Autosize mah="50vh" type="auto">
            <Stack
              gap={2}
              component="ul"
              style={{ listStyle: 'none', margin: 0, padding: 0 }}
              aria-label="Folders and files"
            >
              {folders.map((item) => (
                <li key={item.path}>
                  <UnstyledButton
                    onClick={() => setFolder(item.path)}
                    aria-label={`Open folder ${item.name}`}
                    w="100%"
                    p={6}
                  >
                    <Group gap="xs" wrap="nowrap">
                      <IconFolder size={18} aria-hidden="true" color="var(--mantine-color-yellow-6)" />
                      <Text size="sm" truncate>
                        {item.name}
                      </Text>
                    </Group>
                  </UnstyledButton>
                </li>
              ))}
              {files.map((file) => (
                <li key={file.path}>
                  <Group gap="xs" wrap="nowrap" p={6}>
                    <Checkbox
                      checked={isChosen(file)}
                      onChange={() => toggle(file)}
                      aria-label={file.name}
                      radius={multiple ? undefined : 'xl'}
                    />
                    <IconFile size={18} aria-hidden="true" />
                    <Text size="sm" truncate style={{ flex: 1, minWidth: 0 }}>
                      {file.name}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                      {formatBytes(file.size)}
                    </Text>
                  </Group>
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        {listing.data?.isTruncated && (
          <Text size="xs" c="dimmed">
            This folder holds more entries than can be shown; move some files into subfolders.
          </Text>
        )}
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm" c="dimmed" aria-live="polite">
            {chosen.length === 1 ? '1 file chosen' : `${chosen.length} files chosen`}
          </Text>
          <Group gap="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={pick} disabled={chosen.length === 0}>
              {multiple ? 'Add chosen files' : 'Choose'}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
