import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { IconChevronLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right (below the title on narrow screens). */
  actions?: ReactNode;
  /** A "back" link above the title, for detail and add screens. */
  back?: { to: string; label: string };
}

/** The top of every console page: one h1, what the page is for, and its main actions. */
export function PageHeader({ title, description, actions, back }: PageHeaderProps) {
  return (
    <Stack gap="xs" mb="lg">
      {back && (
        <Anchor component={Link} to={back.to} size="sm" w="fit-content">
          <Group gap={4} wrap="nowrap">
            <IconChevronLeft size={16} aria-hidden="true" />
            {back.label}
          </Group>
        </Anchor>
      )}
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 18rem', minWidth: 0 }}>
          <Title order={1} size="h2">
            {title}
          </Title>
          {description && <Text c="dimmed">{description}</Text>}
        </Stack>
        {actions && (
          <Group gap="sm" wrap="wrap">
            {actions}
          </Group>
        )}
      </Group>
    </Stack>
  );
}
