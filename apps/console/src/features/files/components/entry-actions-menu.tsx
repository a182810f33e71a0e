import { ActionIcon, Menu } from '@mantine/core';
import {
  IconDots,
  IconDownload,
  IconEye,
  IconFolderOpen,
  IconFolderShare,
  IconLink,
  IconPencil,
  IconTrash,
} from '@tabler/icons-react';
import type { FileEntry } from '../utils/file-entries';
import { entryName } from '../utils/file-entries';

export type EntryAction = 'open' | 'preview' | 'share' | 'rename' | 'move' | 'delete';

/** The "…" menu of one file or folder; write actions only when the user may change files. */
export function EntryActionsMenu({
  entry,
  canWrite,
  onAction,
}: {
  entry: FileEntry;
  canWrite: boolean;
  onAction: (action: EntryAction, entry: FileEntry) => void;
}) {
  const name = entryName(entry);
  const icon = { size: 16, stroke: 1.6 };
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {entry.kind === 'folder' ? (
          <Menu.Item leftSection={<IconFolderOpen {...icon} />} onClick={() => onAction('open', entry)}>
            Open
          </Menu.Item>
        ) : (
          <>
            <Menu.Item leftSection={<IconEye {...icon} />} onClick={() => onAction('preview', entry)}>
              Preview
            </Menu.Item>
            <Menu.Item leftSection={<IconLink {...icon} />} onClick={() => onAction('share', entry)}>
              Copy link
            </Menu.Item>
            <Menu.Item
              leftSection={<IconDownload {...icon} />}
              component="a"
              href={entry.file.url}
              download={entry.file.name}
            >
              Download
            </Menu.Item>
          </>
        )}
        {canWrite && (
          <>
            <Menu.Divider />
            <Menu.Item leftSection={<IconPencil {...icon} />} onClick={() => onAction('rename', entry)}>
              Rename
            </Menu.Item>
            {entry.kind === 'file' && (
              <Menu.Item leftSection={<IconFolderShare {...icon} />} onClick={() => onAction('move', entry)}>
                Move
              </Menu.Item>
            )}
            <Menu.Item
              color="red"
              leftSection={<IconTrash {...icon} />}
              onClick={() => onAction('delete', entry)}
            >
              Delete
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
