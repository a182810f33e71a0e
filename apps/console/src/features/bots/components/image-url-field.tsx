import { Avatar, Button, Group, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { IconPhoto } from '@tabler/icons-react';
import type { ChangeEvent, ReactNode } from 'react';
import { ImagePicker } from '../../../components/image-picker/image-picker';
import { notifyError } from '../../../components/ui/notify';
import { botsApi } from '../api/bots-api';

interface ImageUrlFieldProps {
  /** The bot the image is for: a picked file becomes a permanent link of this bot's widget. */
  botId: string;
  label: string;
  description?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
  onBlur?: () => void;
}

/**
 * An image address: typed in, or picked (or uploaded) from the organisation's gallery. A picked file is stored as
 * a permanent link of the bot (a gallery download link expires), which visitors' browsers may load.
 */
export function ImageUrlField({
  botId,
  label,
  description,
  value,
  onChange,
  error,
  onBlur,
}: ImageUrlFieldProps) {
  const [opened, { open, close }] = useDisclosure(false);
  const link = useMutation({
    mutationFn: (path: string) => botsApi.image(botId, path),
    onSuccess: ({ url }) => onChange(url),
    onError: (failure) => notifyError(failure, 'The image could not be used'),
  });
  return (
    <>
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <Avatar src={value || null} alt="" radius="sm" size={36} mt={24} aria-hidden="true">
          <IconPhoto size={18} />
        </Avatar>
        <TextInput
          label={label}
          description={description}
          placeholder="https://"
          value={value}
          error={error}
          onBlur={onBlur}
          onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.currentTarget.value)}
          style={{ flex: 1, minWidth: 0 }}
          inputContainer={(children) => (
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
              <Button
                variant="default"
                onClick={open}
                aria-label={`Choose ${label.toLowerCase()} from the gallery`}
              >
                Gallery
              </Button>
            </Group>
          )}
        />
      </Group>
      <ImagePicker
        opened={opened}
        onClose={close}
        title={`Choose: ${label}`}
        onPick={(image) => link.mutate(image.path)}
      />
    </>
  );
}
