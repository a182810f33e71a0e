import { ActionIcon, Group, Loader, NavLink, Text } from '@mantine/core';
import type { FolderItem } from '@omnibot/contracts';
import { useQuery } from '@tanstack/react-query';
import { IconChevronRight, IconFolder, IconFolderOpen, IconFolders } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { getSubfoldersQueryOptions } from '../../../lib/files/files-api';
import { storageErrorMessage } from '../../../lib/files/storage-errors';
import classes from './folder-tree.module.css';

interface TreeProps {
  currentPath: string;
  hrefFor: (path: string) => string;
}

function Subfolders({ path, depth, ...tree }: TreeProps & { path: string; depth: number }) {
  const subfolders = useQuery(getSubfoldersQueryOptions(path));
  if (subfolders.isPending) {
    return (
      <Group gap="xs" pl={depth * 16 + 12} py={4}>
        <Loader size="xs" />
        <Text size="xs" c="dimmed">
          Loading…
        </Text>
      </Group>
    );
  }
  if (subfolders.isError) {
    return (
      <Text size="xs" c="red" pl={depth * 16 + 12} py={4}>
        {storageErrorMessage(subfolders.error)}
      </Text>
    );
  }
  if (subfolders.data.length === 0) return null;
  return (
    <ul className={classes.list} role="group">
      {subfolders.data.map((folder) => (
        <FolderNode key={folder.path} folder={folder} depth={depth} {...tree} />
      ))}
    </ul>
  );
}

function FolderNode({
  folder,
  depth,
  currentPath,
  hrefFor,
}: TreeProps & { folder: FolderItem; depth: number }) {
  const isAncestor = currentPath.startsWith(`${folder.path}/`);
  // Opened by hand or, until the user decides, because the current folder lies inside.
  const [toggled, setToggled] = useState<boolean | null>(null);
  const isOpen = toggled ?? isAncestor;
  const isCurrent = currentPath === folder.path;
  return (
    <li className={classes.item}>
      <Group gap={0} wrap="nowrap" pl={depth * 16}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          aria-label={`${isOpen ? 'Collapse' : 'Expand'} ${folder.name}`}
          aria-expanded={isOpen}
          onClick={() => setToggled(!isOpen)}
          className={classes.chevron}
          data-open={isOpen || undefined}
        >
          <IconChevronRight size={14} />
        </ActionIcon>
        <NavLink
          component={Link}
          to={hrefFor(folder.path)}
          label={folder.name}
          active={isCurrent}
          aria-current={isCurrent ? 'page' : undefined}
          leftSection={isCurrent || isOpen ? <IconFolderOpen size={16} /> : <IconFolder size={16} />}
          py={4}
          px={6}
          className={classes.link}
        />
      </Group>
      {isOpen && (
        <Subfolders path={folder.path} depth={depth + 1} currentPath={currentPath} hrefFor={hrefFor} />
      )}
    </li>
  );
}

/** The folder tree: the root, then subfolders loaded as their parents open; the current folder is marked. */
export function FolderTree({ currentPath, hrefFor }: TreeProps) {
  const isRoot = currentPath === '';
  return (
    <nav aria-label="Folders">
      <NavLink
        component={Link}
        to={hrefFor('')}
        label="All files"
        active={isRoot}
        aria-current={isRoot ? 'page' : undefined}
        leftSection={<IconFolders size={16} />}
        py={6}
        px={8}
      />
      <Subfolders path="" depth={0} currentPath={currentPath} hrefFor={hrefFor} />
    </nav>
  );
}
