import { Group, Paper, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { searchMenu, type MenuSearchEntry } from '@omnibot/contracts';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MenuIcon } from '../../../components/layout/menu-icon';
import classes from './menu-search-results.module.css';

interface MenuSearchResultsProps {
  query: string;
  /** The menu entries the user may see. */
  entries: MenuSearchEntry[];
}

function EmptyState({ title, children }: { title: string; children: string }) {
  return (
    <Paper withBorder p="xl" radius="md" ta="center">
      <ThemeIcon variant="light" size={48} radius="xl" mb="sm">
        <IconSearch size={24} stroke={1.6} />
      </ThemeIcon>
      <Title order={2} size="h4" mb={4}>
        {title}
      </Title>
      <Text c="dimmed" size="sm" maw={440} mx="auto">
        {children}
      </Text>
    </Paper>
  );
}

/** The menu entries matching `query`, each a link to its page, or a hint on what to search for. */
export function MenuSearchResults({ query, entries }: MenuSearchResultsProps) {
  const text = query.trim();
  if (!text) {
    return (
      <EmptyState title="Search the menu">
        Type part of a menu name, such as Users, Install or Welcome Message, or a section such as SETTINGS.
      </EmptyState>
    );
  }

  const results = searchMenu(entries, text);
  if (results.length === 0) {
    return (
      <EmptyState title={`Nothing in the menu matches “${text}”`}>
        Check the spelling, try a shorter word, or search for a section or group such as SETTINGS, Bots or
        Integration. Only the menu entries your account can use are searched.
      </EmptyState>
    );
  }

  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed" aria-live="polite">
        {results.length === 1 ? '1 menu entry matches' : `${results.length} menu entries match`} “{text}”
      </Text>
      <Stack component="ul" gap="xs" className={classes.list} aria-label="Menu search results">
        {results.map((entry) => (
          <li key={entry.id}>
            <UnstyledButton component={Link} to={entry.route} className={classes.result}>
              <Group wrap="nowrap" gap="md">
                <ThemeIcon variant="light" size="lg" radius="md">
                  <MenuIcon name={entry.icon} size={20} />
                </ThemeIcon>
                <div>
                  <Text fw={600}>{entry.label}</Text>
                  <Text size="sm" c="dimmed">
                    {entry.path.join(' › ')}
                  </Text>
                </div>
              </Group>
            </UnstyledButton>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}
