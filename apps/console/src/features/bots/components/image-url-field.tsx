import { Avatar, Button, Group, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPhoto } from '@tabler/icons-react';
import type { ChangeEvent, ReactNode } from 'react';
import { ImagePicker } from '../../../components/image-picker/image-picker';

interface ImageUrlFieldProps {
  label: string;
  description?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
  onBlur?: () => void;
}

/** An image address: typed in, or picked (or uploaded) from the organisation's gallery. */
export function ImageUrlField({ label, description, value, onChange, error, onBlur }: ImageUrlFieldProps) {
  const [opened, { open, close }] = useDisclosure(false);
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
        onPick={(image) => onChange(new URL(image.url, window.location.origin).href)}
      />
    </>
  );
}
