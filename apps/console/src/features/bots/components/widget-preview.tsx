import { Card, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import {
  parseFrameMessage,
  PROTOCOL_SOURCE,
  type PreviewConfigMessage,
  type PublicWidgetConfig,
} from '@omnibot/contracts';
import { useEffect, useRef, useState } from 'react';
import { botPaths } from '../utils/bot-paths';

/** Typing pauses this long before the preview is redrawn, so it follows the form without a redraw per key. */
const PREVIEW_DEBOUNCE_MS = 150;

export type PreviewColorScheme = 'light' | 'dark';

const isReadyMessage = (data: unknown) => parseFrameMessage(data)?.type === 'ready';

interface WidgetPreviewProps {
  botId: string;
  /** The public projection of the form's current values; null while they are invalid (the last one stays). */
  config: PublicWidgetConfig | null;
  colorScheme: PreviewColorScheme;
  onColorSchemeChange: (scheme: PreviewColorScheme) => void;
}

/**
 * The real widget in preview mode, in an iframe of our own origin. Once it says it is ready, every change of the
 * configuration or of the colour scheme is posted to it (after a short pause in typing).
 */
export function WidgetPreview({ botId, config, colorScheme, onColorSchemeChange }: WidgetPreviewProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [isReady, setIsReady] = useState(false);
  // Compared as text: the form hands over a new object on every render.
  const payload = config === null ? null : JSON.stringify(config);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const target = frame.current?.contentWindow;
      if (!target || event.source !== target || event.origin !== window.location.origin) return;
      if (isReadyMessage(event.data)) setIsReady(true);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  useEffect(() => {
    if (!isReady || payload === null) return;
    const timer = window.setTimeout(() => {
      const message: PreviewConfigMessage = {
        source: PROTOCOL_SOURCE,
        type: 'previewConfig',
        config: JSON.parse(payload) as PublicWidgetConfig,
        colorScheme,
      };
      frame.current?.contentWindow?.postMessage(message, window.location.origin);
    }, PREVIEW_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [isReady, payload, colorScheme]);

  return (
    <Card withBorder radius="md" padding="sm">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Text fw={600} component="h2" size="md" m={0}>
            Live preview
          </Text>
          <SegmentedControl
            size="xs"
            aria-label="Preview colour scheme"
            value={colorScheme}
            onChange={(value) => onColorSchemeChange(value === 'dark' ? 'dark' : 'light')}
            data={[
              { value: 'light', label: 'Light' },
              { value: 'dark', label: 'Dark' },
            ]}
          />
        </Group>
        {config === null && (
          <Text size="sm" c="orange" role="status">
            The preview shows the last valid settings until the highlighted fields are fixed.
          </Text>
        )}
        <iframe
          ref={frame}
          title="Live preview of the widget"
          src={botPaths.preview(botId)}
          style={{
            width: '100%',
            maxWidth: 450,
            height: 640,
            border: 0,
            borderRadius: 8,
            alignSelf: 'center',
            colorScheme: 'normal',
          }}
        />
      </Stack>
    </Card>
  );
}
