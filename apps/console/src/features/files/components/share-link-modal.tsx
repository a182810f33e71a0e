import { Alert, Button, CopyButton, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertCircle, IconCheck, IconCopy } from '@tabler/icons-react';
import { getFileObject } from '../../../lib/files/files-api';
import { expiryText, signedUrlExpiry } from '../../../lib/files/format';
import { storageErrorMessage } from '../../../lib/files/storage-errors';
import { baseNameOf } from '../../../lib/files/storage-paths';

function ShareLinkBody({ path }: { path: string }) {
  // A fresh link each time, so it lasts the server's full lifetime from now.
  const link = useQuery({
    queryKey: ['files', 'link', path],
    queryFn: async ({ signal }) => ({ file: await getFileObject(path, { signal }), signedAt: Date.now() }),
    staleTime: 0,
    gcTime: 0,
  });
  if (link.isPending) {
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text size="sm">Signing a download link…</Text>
      </Group>
    );
  }
  if (link.isError) {
    return (
      <Alert color="red" icon={<IconAlertCircle />} title="No link could be made">
        {storageErrorMessage(link.error)}
      </Alert>
    );
  }
  const url = new URL(link.data.file.url, window.location.origin).href;
  const expiresAt = signedUrlExpiry(url);
  return (
    <Stack gap="sm">
      <TextInput
        label="Download link"
        value={url}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
      />
      <Text size="sm" c="dimmed">
        Anyone with this link can download the file.{' '}
        {expiresAt
          ? `It expires ${expiryText(expiresAt, new Date(link.data.signedAt))}; copy the link again here for a new one.`
          : 'It expires after a limited time; copy the link again here for a new one.'}
      </Text>
      <Group justify="flex-end">
        <CopyButton value={url} timeout={4000}>
          {({ copied, copy }) => (
            <Button
              onClick={copy}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            >
              {copied ? 'Copied' : 'Copy link'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** The signed download link of one file, to copy, with when it stops working. */
export function ShareLinkModal({ path, onClose }: { path: string | null; onClose: () => void }) {
  return (
    <Modal
      opened={path !== null}
      onClose={onClose}
      title={path ? `Link to ${baseNameOf(path)}` : ''}
      size="lg"
    >
      {path !== null && <ShareLinkBody path={path} />}
    </Modal>
  );
}
