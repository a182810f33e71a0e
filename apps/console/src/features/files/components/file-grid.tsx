import { Card, Center, Group, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { formatBytes, formatExactBytes } from '../../../lib/files/format';
import type { FileEntry } from '../utils/file-entries';
import { entryName, entryPath } from '../utils/file-entries';
import { EntryActionsMenu, type EntryAction } from './entry-actions-menu';
import { FileThumb } from './file-thumb';

interface FileGridProps {
  entries: readonly FileEntry[];
  hrefFor: (path: string) => string;
  canWrite: boolean;
  onAction: (action: EntryAction, entry: FileEntry) => void;
}

/** The grid view: a card per folder or file with a large preview. */
export function FileGrid({ entries, hrefFor, canWrite, onAction }: FileGridProps) {
  return (
    <SimpleGrid
      cols={{ base: 2, xs: 3, md: 4, xl: 6 }}
      spacing="sm"
      role="list"
      aria-label="Files and folders"
    >
      {entries.map((entry) => {
        const name = entryName(entry);
        return (
          <Card
            key={`${entry.kind}:${entryPath(entry)}`}
            withBorder
            padding="xs"
            radius="md"
            role="listitem"
            aria-label={name}
          >
            {entry.kind === 'folder' ? (
              <UnstyledButton
                component={Link}
                to={hrefFor(entry.folder.path)}
                aria-label={`Open folder ${name}`}
                w="100%"
              >
                <Center h={110}>
                  <FileThumb entry={entry} size={96} />
                </Center>
              </UnstyledButton>
            ) : (
              <UnstyledButton
                onClick={() => onAction('preview', entry)}
                aria-label={`Preview ${name}`}
                w="100%"
              >
                <Center h={110}>
                  <FileThumb entry={entry} size={96} />
                </Center>
              </UnstyledButton>
            )}
            <Group gap={4} wrap="nowrap" justify="space-between" mt={6}>
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate="end" title={name}>
                  {name}
                </Text>
                <Text
                  size="xs"
                  c="dimmed"
                  title={entry.kind === 'file' ? formatExactBytes(entry.file.size) : undefined}
                >
                  {entry.kind === 'folder' ? 'Folder' : formatBytes(entry.file.size)}
                </Text>
              </Stack>
              <EntryActionsMenu entry={entry} canWrite={canWrite} onAction={onAction} />
            </Group>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}
