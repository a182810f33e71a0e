import { Button, Code, Group, PasswordInput, type PasswordInputProps, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconKey, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** What saving does with a stored API key: keep it, replace it with the one typed in, or remove it. */
export type KeyAction = 'keep' | 'replace' | 'remove';

interface StoredKeyFieldProps {
  /** False while creating: the field is then just the write-only input. */
  stored: boolean;
  /** The stored key as it may be shown (masked), or a phrase saying none is stored. */
  mask: string;
  /** Whether a key is stored that could be removed. */
  removable: boolean;
  action: KeyAction;
  onAction: (action: KeyAction) => void;
  /** The PasswordInput props of the form's key field (value, onChange, error). */
  inputProps: PasswordInputProps;
  /**
   * Why the stored key cannot be kept as it is (its URL changed), shown while the key is kept; the form refuses
   * to save until the key is replaced or removed.
   */
  keepError?: string | null;
  /** What the secret is called ("API key" unless told). */
  label?: string;
  /** What the input says while creating. */
  description?: string;
}

/**
 * An API key that is write-only: typed in once, stored encrypted and only ever shown masked. An existing one is
 * kept unless the user chooses to replace or remove it, and only while its URL stays the same.
 */
export function StoredKeyField({
  stored,
  mask,
  removable,
  action,
  onAction,
  inputProps,
  keepError = null,
  label = 'API key',
  description = 'Leave empty for an endpoint that needs none. It is stored encrypted and never shown again.',
}: StoredKeyFieldProps) {
  const input: ReactNode = (
    <PasswordInput
      label={stored ? `New ${label}` : label}
      description={stored ? 'It replaces the stored key when you save.' : description}
      autoComplete="new-password"
      data-1p-ignore
      {...inputProps}
    />
  );
  if (!stored) return input;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} component="div">
        {label}
      </Text>
      <Group gap="sm" wrap="wrap">
        <Code aria-label={`Stored ${label}`}>{action === 'remove' ? 'Removed on save' : mask}</Code>
        {action === 'keep' ? (
          <>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconKey size={14} />}
              onClick={() => onAction('replace')}
            >
              Replace key
            </Button>
            {removable && (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={14} />}
                onClick={() => onAction('remove')}
              >
                Remove key
              </Button>
            )}
          </>
        ) : (
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconArrowBackUp size={14} />}
            onClick={() => onAction('keep')}
          >
            Keep the stored key
          </Button>
        )}
      </Group>
      {action === 'keep' && keepError && (
        <Text size="sm" c="red" role="alert">
          {keepError}
        </Text>
      )}
      {action === 'replace' && input}
    </Stack>
  );
}
