import { SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { WIDGET_LABEL_MAX, WIDGET_TEXT_MAX } from '@omnibot/contracts';
import type { ConfigForm } from './config-editor-context';
import { FlagField } from './config-fields';

/** Whether visitors rate answers, the buttons they rate with, and the disclaimer above their comment. */
export function FeedbackSection({ form }: { form: ConfigForm }) {
  const label = (path: string, text: string) => (
    <TextInput label={text} maxLength={WIDGET_LABEL_MAX} key={form.key(path)} {...form.getInputProps(path)} />
  );
  return (
    <Stack gap="sm">
      <FlagField form={form} path="behaviour.enableUserFeedback" label="Ask for feedback on each answer" />
      <FlagField form={form} path="feedback.enableComment" label="Let visitors add a comment" />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {label('feedback.button1Text', 'First button')}
        {label('feedback.button2Text', 'Second button')}
        {label('feedback.button3Text', 'Third button')}
      </SimpleGrid>
      <Textarea
        label="Disclaimer"
        description="Shown above the comment box. While it is the generated text, it names what Masking masks."
        rows={3}
        resize="vertical"
        maxLength={WIDGET_TEXT_MAX}
        key={form.key('feedback.disclaimer')}
        {...form.getInputProps('feedback.disclaimer')}
      />
    </Stack>
  );
}
