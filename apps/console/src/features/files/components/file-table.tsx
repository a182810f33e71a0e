import { Anchor, Group, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatBytes, formatDateTime, formatExactBytes } from '../../../lib/files/format';
import type { EntrySort, EntrySortColumn, FileEntry } from '../utils/file-entries';
import { entryName, entryPath } from '../utils/file-entries';
import { EntryActionsMenu, type EntryAction } from './entry-actions-menu';
import { FileThumb } from './file-thumb';

interface FileTableProps {
  entries: readonly FileEntry[];
  sort: EntrySort;
  onSortChange: (sort: EntrySort) => void;
  hrefFor: (path: string) => string;
  canWrite: boolean;
  onAction: (action: EntryAction, entry: FileEntry) => void;
}

const COLUMNS: { id: EntrySortColumn; label: string; align?: 'right' }[] = [
  { id: 'name', label: 'Name' },
  { id: 'type', label: 'Type' },
  { id: 'size', label: 'Size', align: 'right' },
  { id: 'created', label: 'Added' },
];

function SortHeader({
  column,
  sort,
  onSortChange,
}: {
  column: (typeof COLUMNS)[number];
  sort: EntrySort;
  onSortChange: (sort: EntrySort) => void;
}) {
  const isSorted = sort.column === column.id;
  const Icon = !isSorted ? IconArrowsSort : sort.direction === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th
      aria-sort={isSorted ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      style={{ textAlign: column.align }}
    >
      <UnstyledButton
        onClick={() =>
          onSortChange({
            column: column.id,
            direction: isSorted && sort.direction === 'asc' ? 'desc' : 'asc',
          })
        }
        aria-label={`Sort by ${column.label.toLowerCase()}`}
      >
        <Group gap={4} wrap="nowrap" justify={column.align === 'right' ? 'flex-end' : 'flex-start'}>
          <Text size="sm" fw={600}>
            {column.label}
          </Text>
          <Icon size={14} aria-hidden="true" color={isSorted ? undefined : 'var(--mantine-color-dimmed)'} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The list view: sortable columns, thumbnails, and a row menu; scrolls sideways on narrow screens. */
export function FileTable({ entries, sort, onSortChange, hrefFor, canWrite, onAction }: FileTableProps) {
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table highlightOnHover verticalSpacing="xs" aria-label="Files and folders">
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((column) => (
              <SortHeader key={column.id} column={column} sort={sort} onSortChange={onSortChange} />
            ))}
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => {
            const name = entryName(entry);
            return (
              <Table.Tr key={`${entry.kind}:${entryPath(entry)}`} data-kind={entry.kind}>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <FileThumb entry={entry} size={32} />
                    {entry.kind === 'folder' ? (
                      <Anchor component={Link} to={hrefFor(entry.folder.path)} fw={500} size="sm">
                        {name}
                      </Anchor>
                    ) : (
                      <Anchor
                        component="button"
                        type="button"
                        size="sm"
                        fw={500}
                        ta="left"
                        onClick={() => onAction('preview', entry)}
                        style={{ wordBreak: 'break-all' }}
                      >
                        {name}
                      </Anchor>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {entry.kind === 'folder' ? 'Folder' : entry.file.type || '—'}
                  </Text>
                </Table.Td>
                <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                  {entry.kind === 'file' && (
                    <Text size="sm" title={formatExactBytes(entry.file.size)}>
                      {formatBytes(entry.file.size)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {entry.kind === 'file' && (
                    <Text size="sm" c="dimmed">
                      {formatDateTime(entry.file.created_at)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ width: 48 }}>
                  <EntryActionsMenu entry={entry} canWrite={canWrite} onAction={onAction} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
