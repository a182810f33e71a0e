import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { createQueryClient } from '../lib/query-client';
import { LiveAgentsContext, SessionContext, type Session } from '../lib/session';
import { appModeColorSchemeManager, DEFAULT_APP_MODE, theme } from '../lib/theme';

/** Renders the pathname and search of the current location, for asserting navigations. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function TestProviders({
  children,
  session = null,
  liveAgents,
}: {
  children: ReactNode;
  session?: Session | null;
  /** What the shell's inbox summary would say (LiveAgentsContext); unknown unless told. */
  liveAgents?: boolean;
}) {
  // A fresh cache per render, so no test sees another's answers.
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={appModeColorSchemeManager()}
      defaultColorScheme={DEFAULT_APP_MODE}
      env="test"
    >
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications />
          <SessionContext value={session}>
            <LiveAgentsContext value={liveAgents}>{children}</LiveAgentsContext>
          </SessionContext>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
