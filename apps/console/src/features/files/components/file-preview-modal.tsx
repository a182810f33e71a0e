import { Anchor, Box, Button, Center, Group, Image, Modal, Stack, Text } from '@mantine/core';
import type { FileItem } from '@omnibot/contracts';
import { IconDownload, IconExternalLink } from '@tabler/icons-react';
import { formatBytes, formatDateTime, formatExactBytes } from '../../../lib/files/format';
import { parentOf } from '../../../lib/files/storage-paths';
import { fileKindOf } from '../utils/file-kind';
import { FileTypeIcon } from './file-type-icon';

function Preview({ file }: { file: FileItem }) {
  const kind = fileKindOf(file.name);
  if (kind === 'image') {
    return <Image src={file.url} alt={file.name} fit="contain" mah="60vh" radius="sm" />;
  }
  if (kind === 'audio') {
    return (
      <Center py="md">
        <audio
          controls
          src={file.url}
          preload="metadata"
          aria-label={`Play ${file.name}`}
          style={{ width: '100%' }}
        >
          <track kind="captions" />
        </audio>
      </Center>
    );
  }
  if (kind === 'pdf' && file.content_type === 'application/pdf') {
    return (
      <Box h="60vh">
        <iframe
          src={`${file.url}#page=1&view=FitH`}
          title={`First page of ${file.name}`}
          style={{ width: '100%', height: '100%', border: 0, borderRadius: 4 }}
        />
      </Box>
    );
  }
  return (
    <Center py="xl">
      <Stack align="center" gap="xs">
        <FileTypeIcon kind={kind} size={64} />
        <Text size="sm" c="dimmed">
          No preview for this kind of file. Download it to open it.
        </Text>
      </Stack>
    </Center>
  );
}

/** A file's preview (image, audio player, PDF first page, or an icon) and its details. */
export function FilePreviewModal({ file, onClose }: { file: FileItem | null; onClose: () => void }) {
  return (
    <Modal opened={file !== null} onClose={onClose} title={file?.name} size="xl">
      {file && (
        <Stack>
          <Preview file={file} />
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text size="sm" c="dimmed">
              <span title={formatExactBytes(file.size)}>{formatBytes(file.size)}</span> · {file.content_type}{' '}
              · added {formatDateTime(file.created_at)} · in {parentOf(file.path) || 'the root folder'}
            </Text>
            <Group gap="xs">
              <Button
                component="a"
                href={file.url}
                target="_blank"
                rel="noopener"
                variant="default"
                leftSection={<IconExternalLink size={16} />}
              >
                Open
              </Button>
              <Button
                component="a"
                href={file.url}
                download={file.name}
                leftSection={<IconDownload size={16} />}
              >
                Download
              </Button>
            </Group>
          </Group>
          {fileKindOf(file.name) === 'pdf' && (
            <Text size="xs" c="dimmed">
              If the PDF does not show,{' '}
              <Anchor href={file.url} target="_blank" rel="noopener">
                open it in a new tab
              </Anchor>
              .
            </Text>
          )}
        </Stack>
      )}
    </Modal>
  );
}
