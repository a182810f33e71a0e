import { Center, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface ErrorPageProps {
  code?: string;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}

/** A centred message with a way out; used for unknown paths and for route errors. */
export function ErrorPage({ code, title, children, actions }: ErrorPageProps) {
  return (
    <Center mih="60dvh" px="md" py="xl">
      <Stack align="center" gap="sm" maw={480} ta="center">
        {code && (
          <Text
            aria-hidden="true"
            fw={900}
            lh={1}
            c="var(--mantine-primary-color-filled)"
            style={{ fontSize: 'clamp(4rem, 18vw, 7.5rem)', letterSpacing: '-0.04em' }}
          >
            {code}
          </Text>
        )}
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed">{children}</Text>
        <div>{actions}</div>
      </Stack>
    </Center>
  );
}
