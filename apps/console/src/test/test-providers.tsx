import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { SessionContext, type Session } from '../lib/session';
import { appModeColorSchemeManager, DEFAULT_APP_MODE, theme } from '../lib/theme';

/** Renders the pathname and search of the current location, for asserting navigations. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function TestProviders({
  children,
  session = null,
}: {
  children: ReactNode;
  session?: Session | null;
}) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={appModeColorSchemeManager()}
      defaultColorScheme={DEFAULT_APP_MODE}
      env="test"
    >
      <SessionContext value={session}>{children}</SessionContext>
    </MantineProvider>
  );
}
