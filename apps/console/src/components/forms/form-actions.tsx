import { Button, Group } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface FormActionsProps {
  /** Buttons shown before the submit button (cancel, delete...). */
  actions?: ReactNode;
  submitLabel: string;
  isSaving: boolean;
}

/** The row that ends a settings form: its other actions, then the submit button (spinning while it saves). */
export function FormActions({ actions, submitLabel, isSaving }: FormActionsProps) {
  return (
    <Group justify="flex-end" gap="sm">
      {actions}
      <Button
        type="submit"
        loading={isSaving}
        leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
      >
        {submitLabel}
      </Button>
    </Group>
  );
}
