import { Card, Code, ScrollArea, Stack, Text } from '@mantine/core';
import { PROMPT_SAMPLE_VALUES, renderPrompt } from '@omnibot/contracts';

/** The template as the model would receive it, with sample values in place of the variables. */
export function PromptPreview({ template }: { template: string }) {
  const rendered = renderPrompt(template, PROMPT_SAMPLE_VALUES);
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="prompt-preview-title">
      <Stack gap="xs">
        <Text fw={600} id="prompt-preview-title">
          Preview
        </Text>
        <Text size="sm" c="dimmed">
          Rendered with sample values: a question about opening hours, two context passages, a short
          conversation, English and the bot name Omnibot.
        </Text>
        <ScrollArea.Autosize mah={480} type="auto">
          <Code
            block
            data-testid="prompt-preview"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          >
            {rendered || ' '}
          </Code>
        </ScrollArea.Autosize>
      </Stack>
    </Card>
  );
}
