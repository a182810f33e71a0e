import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { PROMPT_TEMPLATE_MAX, PROMPT_VARIABLES, type PromptVariable } from '@omnibot/contracts';
import { IconBraces } from '@tabler/icons-react';
import { type ReactNode, useRef } from 'react';

interface TemplateEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Shown under the editor: the unknown or malformed variables, or another problem. */
  error?: ReactNode;
  onBlur?: () => void;
}

/** A monospace template editor with a button per variable that inserts `{{name}}` at the cursor. */
export function TemplateEditor({ value, onChange, error, onBlur }: TemplateEditorProps) {
  const ref = useRef<HTMLTextAreaElement>(null);

  const insert = (name: PromptVariable) => {
    const area = ref.current;
    const token = `{{${name}}}`;
    const start = area?.selectionStart ?? value.length;
    const end = area?.selectionEnd ?? value.length;
    onChange(`${value.slice(0, start)}${token}${value.slice(end)}`);
    const cursor = start + token.length;
    // The new value reaches the textarea on the next render; the cursor goes after the inserted variable.
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(cursor, cursor);
    });
  };

  return (
    <Stack gap="xs">
      <Textarea
        ref={ref}
        label="Template"
        description="What the model receives. Use the variables below; they are filled in for every question."
        required
        rows={14}
        resize="vertical"
        maxLength={PROMPT_TEMPLATE_MAX}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onBlur={onBlur}
        error={error || undefined}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
      />
      <Group gap="xs" wrap="wrap" role="group" aria-label="Insert a variable">
        <Text size="sm" c="dimmed">
          Insert:
        </Text>
        {PROMPT_VARIABLES.map((name) => (
          <Button
            key={name}
            size="compact-sm"
            variant="light"
            leftSection={<IconBraces size={14} aria-hidden="true" />}
            onClick={() => insert(name)}
            aria-label={`Insert {{${name}}}`}
          >
            {name}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
