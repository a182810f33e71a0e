import { Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AppFooter } from '../../../components/layout/app-footer';
import { ThemePanel } from '../../../components/layout/theme-panel';
import { paths } from '../../../config/paths';
import { config } from '../../../lib/config';
import classes from './auth-frame.module.css';

/** The signed-out pages' layout: the product brand and the theme toggle above one centred card. */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div className={classes.page}>
      <header className={classes.header}>
        <Link to={paths.home} className={classes.brand}>
          {config.productName.toUpperCase()} ADMIN
        </Link>
        <ThemePanel />
      </header>
      <main className={classes.main}>
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', xs: 'xl' }} className={classes.card}>
          {children}
        </Paper>
      </main>
      <AppFooter />
    </div>
  );
}

/** A page title with a line of explanation under it. */
export function AuthHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={1} size="h3">
        {title}
      </Title>
      {children && (
        <Text size="sm" c="dimmed">
          {children}
        </Text>
      )}
    </Stack>
  );
}

/** Shown while the first session check is on its way (usually a blink). */
export function SessionLoader() {
  return (
    <Center mih="100dvh">
      <Loader aria-label="Checking your sign-in" />
    </Center>
  );
}
