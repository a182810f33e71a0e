import { AppShell } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';
import { AppSidebar } from './app-sidebar';
import classes from './app-layout.module.css';
import { MenuSpotlight } from './menu-spotlight';

const HEADER_HEIGHT = 56;
const NAVBAR_WIDTH = 264;
/** Sidebar animations take 300 ms. */
const SIDEBAR_ANIMATION_MS = 300;

/** The console shell: header, sidebar (drawer below 768 px), content, footer. */
export function AppLayout({ children }: { children: ReactNode }) {
  const [mobileOpened, setMobileOpened] = useState(false);
  const [desktopCollapsed, setDesktopCollapsed] = useState(false);
  const { pathname, search } = useLocation();
  const route = `${pathname}${search}`;
  const [previousRoute, setPreviousRoute] = useState(route);

  // Every route change closes the sidebar drawer (adjusted while rendering, so it never flashes open).
  // The desktop sidebar's collapsed or expanded state is the user's layout choice and survives navigation.
  if (route !== previousRoute) {
    setPreviousRoute(route);
    setMobileOpened(false);
  }

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      // Mantine's `sm` breakpoint is 48em = 768 px, our mobile breakpoint.
      navbar={{
        width: NAVBAR_WIDTH,
        breakpoint: 'sm',
        collapsed: { mobile: !mobileOpened, desktop: desktopCollapsed },
      }}
      transitionDuration={SIDEBAR_ANIMATION_MS}
      padding="md"
    >
      <AppShell.Header>
        <AppHeader
          mobileOpened={mobileOpened}
          onToggleMobile={() => setMobileOpened((opened) => !opened)}
          desktopCollapsed={desktopCollapsed}
          onToggleDesktop={() => setDesktopCollapsed((collapsed) => !collapsed)}
        />
      </AppShell.Header>
      <AppSidebar mobileCollapsed={!mobileOpened} desktopCollapsed={desktopCollapsed} />
      <AppShell.Main className={classes.main}>{children}</AppShell.Main>
      <AppFooter />
      <MenuSpotlight />
    </AppShell>
  );
}
