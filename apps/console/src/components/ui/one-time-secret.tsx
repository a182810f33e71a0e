import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

function CopyValue({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code block style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {value}
        </Code>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : `Copy ${label.toLowerCase()}`} withArrow>
              <ActionIcon
                variant="light"
                color={copied ? 'teal' : undefined}
                size="lg"
                onClick={copy}
                aria-label={`Copy ${label.toLowerCase()}`}
              >
                {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

interface OneTimeSecretModalProps {
  /** Null closes the modal; the secret is dropped with it. */
  credential: { key: string; secret: string } | null;
  title?: string;
  /** Why the user is seeing it, e.g. "The API credential of Acme". */
  description?: string;
  onClose: () => void;
}

/** Shows a credential's secret once, with copy buttons and a warning that it will not be shown again. */
export function OneTimeSecretModal({
  credential,
  title = 'Copy the API secret now',
  description,
  onClose,
}: OneTimeSecretModalProps) {
  return (
    <Modal
      opened={credential !== null}
      onClose={onClose}
      title={title}
      centered
      size="lg"
      // Closing by accident would lose the secret for good.
      closeOnClickOutside={false}
    >
      {credential && (
        <Stack gap="md">
          {description && <Text size="sm">{description}</Text>}
          <Alert color="yellow" icon={<IconAlertTriangle />} title="It will not be shown again">
            Only a hash of the secret is stored. Copy it to a safe place now; if it is lost, reset the
            credential.
          </Alert>
          <CopyValue label="Key" value={credential.key} />
          <CopyValue label="Secret" value={credential.secret} />
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied the secret</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
