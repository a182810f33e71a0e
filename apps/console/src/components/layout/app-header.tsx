import { ActionIcon, Burger, Group, Tooltip } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { config } from '../../lib/config';
import classes from './app-layout.module.css';
import { MenuSearchButton } from './menu-search-button';
import { ThemePanel } from './theme-panel';
import { UserMenu } from './user-menu';

interface AppHeaderProps {
  mobileOpened: boolean;
  onToggleMobile: () => void;
  desktopCollapsed: boolean;
  onToggleDesktop: () => void;
}

export function AppHeader({
  mobileOpened,
  onToggleMobile,
  desktopCollapsed,
  onToggleDesktop,
}: AppHeaderProps) {
  const sidebarLabel = desktopCollapsed ? 'Expand sidebar' : 'Collapse sidebar';
  return (
    <Group h="100%" px="md" gap="sm" justify="space-between" wrap="nowrap">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Burger
          opened={mobileOpened}
          onClick={onToggleMobile}
          hiddenFrom="sm"
          size="sm"
          aria-label="Open menu"
          aria-expanded={mobileOpened}
        />
        <Tooltip label={sidebarLabel} openDelay={400}>
          <ActionIcon
            visibleFrom="sm"
            variant="subtle"
            color="gray"
            size="lg"
            onClick={onToggleDesktop}
            aria-label={sidebarLabel}
            aria-expanded={!desktopCollapsed}
          >
            {desktopCollapsed ? (
              <IconLayoutSidebarLeftExpand size={20} stroke={1.6} />
            ) : (
              <IconLayoutSidebarLeftCollapse size={20} stroke={1.6} />
            )}
          </ActionIcon>
        </Tooltip>
        <Link to={paths.brand} className={classes.brand}>
          {config.productName.toUpperCase()} ADMIN
        </Link>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <MenuSearchButton />
        <ThemePanel />
        <UserMenu />
      </Group>
    </Group>
  );
}
