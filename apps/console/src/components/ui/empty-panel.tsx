import { EmptyState, type MantineSize } from '@mantine/core';
import type { ReactNode } from 'react';

interface EmptyPanelProps {
  icon: ReactNode;
  /** What is missing, as a heading (level `order`, 2 below a page's h1). */
  title: string;
  /** What to do next. */
  description: ReactNode;
  action?: ReactNode;
  order?: 2 | 3 | 4;
  size?: MantineSize;
}

/** An empty state that says what to do next: icon, heading, description and an optional action. */
export function EmptyPanel({ icon, title, description, action, order = 2, size = 'md' }: EmptyPanelProps) {
  return (
    <EmptyState size={size} withIndicatorBackground py="md">
      <EmptyState.Indicator>{icon}</EmptyState.Indicator>
      <EmptyState.Title order={order}>{title}</EmptyState.Title>
      <EmptyState.Description>{description}</EmptyState.Description>
      {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
    </EmptyState>
  );
}
