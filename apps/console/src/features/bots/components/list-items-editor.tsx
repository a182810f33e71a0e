import { ActionIcon, Button, Card, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { FormArrayElement, UseFormReturnType } from '@mantine/form';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';

interface ListItemField {
  key: string;
  label: string;
  maxLength: number;
  /** A multi-line text. */
  long?: boolean;
}

interface ListItemsEditorProps<Values> {
  form: UseFormReturnType<Values>;
  /** The list's path in the form, e.g. `welcome.welcomeMenu`. */
  path: string;
  items: readonly Record<string, unknown>[];
  fields: readonly ListItemField[];
  /** What one item is called, e.g. "Menu item". */
  itemLabel: string;
  max: number;
  emptyText: string;
  /** A new item's values. */
  blank: Record<string, string>;
}

/** A list whose items have a few text fields: add (up to `max`), remove, and move up or down. */
export function ListItemsEditor<Values>({
  form,
  path,
  items,
  fields,
  itemLabel,
  max,
  emptyText,
  blank,
}: ListItemsEditorProps<Values>) {
  const listError = form.errors[path];
  return (
    <Stack gap="sm">
      {items.length === 0 && (
        <Text size="sm" c="dimmed">
          {emptyText}
        </Text>
      )}
      {items.map((_, index) => {
        const number = index + 1;
        return (
          <Card key={index} withBorder padding="sm" radius="sm" aria-label={`${itemLabel} ${number}`}>
            <Stack gap="xs">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" fw={500}>
                  {itemLabel} {number}
                </Text>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    aria-label={`Move ${itemLabel.toLowerCase()} ${number} up`}
                    disabled={index === 0}
                    onClick={() => form.reorderListItem(path, { from: index, to: index - 1 })}
                  >
                    <IconArrowUp size={16} aria-hidden="true" />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    aria-label={`Move ${itemLabel.toLowerCase()} ${number} down`}
                    disabled={index === items.length - 1}
                    onClick={() => form.reorderListItem(path, { from: index, to: index + 1 })}
                  >
                    <IconArrowDown size={16} aria-hidden="true" />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${itemLabel.toLowerCase()} ${number}`}
                    onClick={() => form.removeListItem(path, index)}
                  >
                    <IconTrash size={16} aria-hidden="true" />
                  </ActionIcon>
                </Group>
              </Group>
              {fields.map((field) => {
                const props = {
                  label: `${field.label} (${itemLabel.toLowerCase()} ${number})`,
                  maxLength: field.maxLength,
                  ...form.getInputProps(`${path}.${index}.${field.key}`),
                };
                return field.long ? (
                  <Textarea key={field.key} rows={2} resize="vertical" {...props} />
                ) : (
                  <TextInput key={field.key} {...props} />
                );
              })}
            </Stack>
          </Card>
        );
      })}
      {typeof listError === 'string' && (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      )}
      <Group justify="space-between" gap="sm">
        <Text size="xs" c="dimmed">
          {items.length} of {max}
        </Text>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          disabled={items.length >= max}
          onClick={() => form.insertListItem(path, { ...blank } as FormArrayElement<Values, string>)}
        >
          Add {itemLabel.toLowerCase()}
        </Button>
      </Group>
    </Stack>
  );
}
