import { AppShell, Badge, Box, NavLink, ScrollArea } from '@mantine/core';
import type { MenuNode } from '@omnibot/contracts';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { config } from '../../lib/config';
import { useVisibleMenu } from '../../lib/menu';
import classes from './app-layout.module.css';
import { MenuIcon } from './menu-icon';

const containsRoute = (node: MenuNode, pathname: string): boolean =>
  node.kind === 'link'
    ? node.route === pathname
    : node.children.some((child) => containsRoute(child, pathname));

function MenuGroupLink({ node, pathname }: { node: Extract<MenuNode, { kind: 'group' }>; pathname: string }) {
  const [opened, setOpened] = useState(() => containsRoute(node, pathname));
  return (
    <NavLink
      component="button"
      type="button"
      label={node.label}
      leftSection={<MenuIcon name={node.icon} />}
      opened={opened}
      onChange={setOpened}
      aria-expanded={opened}
      childrenOffset={28}
    >
      {node.children.map((child) => (
        <MenuNodeLink key={child.id} node={child} pathname={pathname} />
      ))}
    </NavLink>
  );
}

function MenuNodeLink({ node, pathname }: { node: MenuNode; pathname: string }) {
  if (node.kind === 'group') return <MenuGroupLink node={node} pathname={pathname} />;
  return (
    <NavLink
      component={Link}
      to={node.route}
      label={node.label}
      leftSection={<MenuIcon name={node.icon} />}
      active={node.route === pathname}
      aria-current={node.route === pathname ? 'page' : undefined}
    />
  );
}

interface AppSidebarProps {
  mobileCollapsed: boolean;
  desktopCollapsed: boolean;
}

/** The sidebar: the menu visibleMenu allows, by section, and the environment badge. */
export function AppSidebar({ mobileCollapsed, desktopCollapsed }: AppSidebarProps) {
  const { sections } = useVisibleMenu();
  const { pathname } = useLocation();
  return (
    <AppShell.Navbar
      aria-label="Main menu"
      className={classes.navbar}
      data-mobile-collapsed={mobileCollapsed || undefined}
      data-desktop-collapsed={desktopCollapsed || undefined}
    >
      <AppShell.Section grow component={ScrollArea} px="xs" pb="md" type="scroll">
        {sections.map((section) => (
          <Box key={section.id} role="group" aria-label={section.title}>
            <div className={classes.sectionTitle} aria-hidden="true">
              {section.title}
            </div>
            {section.items.map((node) => (
              <MenuNodeLink key={node.id} node={node} pathname={pathname} />
            ))}
          </Box>
        ))}
      </AppShell.Section>
      <AppShell.Section p="md" className={classes.navbarFooter}>
        <Badge variant="light" size="md" radius="sm" fullWidth>
          {config.environment}
        </Badge>
      </AppShell.Section>
    </AppShell.Navbar>
  );
}
