import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

interface SecretValueProps {
  label: string;
  value: string;
  /** Offer a copy button (not for a masked value, which is of no use copied). */
  copyable?: boolean;
}

/** A labelled value in monospace that wraps anywhere (keys are long), with an optional copy button. */
export function SecretValue({ label, value, copyable = true }: SecretValueProps) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} component="div">
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code
          block
          aria-label={label}
          style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
        >
          {value}
        </Code>
        {copyable && (
          <CopyButton value={value} timeout={2000}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : `Copy ${label.toLowerCase()}`} withArrow>
                <ActionIcon
                  variant={copied ? 'light' : 'default'}
                  color={copied ? 'teal' : undefined}
                  size="lg"
                  onClick={copy}
                  aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
                >
                  {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        )}
      </Group>
    </Stack>
  );
}
