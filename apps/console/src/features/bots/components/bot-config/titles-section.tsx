import { SimpleGrid, TextInput } from '@mantine/core';
import { WIDGET_LABEL_MAX } from '@omnibot/contracts';
import type { ConfigForm } from './config-editor-context';

/** The tooltips of the widget's input and buttons. */
export function TitlesSection({ form }: { form: ConfigForm }) {
  const titles = [
    ['titles.inputTitle', 'Message input'],
    ['titles.sendTitle', 'Send button'],
    ['titles.microphoneTitle', 'Microphone button'],
    ['titles.recognitionUnavailable', 'No speech recognition'],
    ['titles.muteTitle', 'Mute button'],
    ['titles.unMuteTitle', 'Unmute button'],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {titles.map(([path, text]) => (
        <TextInput
          key={form.key(path)}
          label={text}
          maxLength={WIDGET_LABEL_MAX}
          {...form.getInputProps(path)}
        />
      ))}
    </SimpleGrid>
  );
}
