import { Box, Card, Group, Image, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import type { FileItem } from '@omnibot/contracts';
import { IconCircleCheckFilled } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatBytes, formatExactBytes } from '../../lib/files/format';
import { parentOf } from '../../lib/files/storage-paths';
import classes from './image-grid.module.css';

interface ImageGridProps {
  images: readonly FileItem[];
  /** Picking mode: cards are radio buttons. */
  selectedPath?: string | null;
  onSelect?: (image: FileItem) => void;
  /** Per-image buttons (browsing mode). */
  renderActions?: (image: FileItem) => ReactNode;
  /** Show each image's folder (when images of several folders are listed). */
  showFolder?: boolean;
}

function Thumbnail({ image }: { image: FileItem }) {
  return (
    <Box className={classes.thumb}>
      <Image src={image.url} alt={image.name} fit="contain" h="100%" loading="lazy" />
    </Box>
  );
}

function Caption({ image, showFolder }: { image: FileItem; showFolder?: boolean }) {
  const folder = parentOf(image.path);
  return (
    <Stack gap={0} mt="xs" style={{ minWidth: 0 }}>
      <Text size="sm" fw={500} truncate="end" title={image.name}>
        {image.name}
      </Text>
      <Text size="xs" c="dimmed" truncate="end" title={formatExactBytes(image.size)}>
        {formatBytes(image.size)}
        {showFolder ? ` · ${folder || 'root folder'}` : ''}
      </Text>
    </Stack>
  );
}

/** A grid of image thumbnails: selectable like radio buttons when `onSelect` is given. */
export function ImageGrid({ images, selectedPath, onSelect, renderActions, showFolder }: ImageGridProps) {
  const cols = { base: 2, xs: 3, sm: 4, lg: 5, xl: 6 };
  if (onSelect) {
    return (
      <SimpleGrid cols={cols} spacing="sm" role="radiogroup" aria-label="Images">
        {images.map((image) => {
          const isSelected = image.path === selectedPath;
          return (
            <UnstyledButton
              key={image.path}
              role="radio"
              aria-checked={isSelected}
              aria-label={image.path}
              onClick={() => onSelect(image)}
              className={classes.option}
              data-selected={isSelected || undefined}
            >
              <Thumbnail image={image} />
              <Caption image={image} showFolder={showFolder} />
              {isSelected && <IconCircleCheckFilled className={classes.check} size={24} aria-hidden="true" />}
            </UnstyledButton>
          );
        })}
      </SimpleGrid>
    );
  }
  return (
    <SimpleGrid cols={cols} spacing="sm" role="list" aria-label="Images">
      {images.map((image) => (
        <Card key={image.path} withBorder padding="xs" radius="md" role="listitem" aria-label={image.path}>
          <Thumbnail image={image} />
          <Caption image={image} showFolder={showFolder} />
          {renderActions && (
            <Group gap={4} mt={6} wrap="nowrap">
              {renderActions(image)}
            </Group>
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
