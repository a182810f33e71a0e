import { Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { ConfigForm } from './config-editor-context';
import { FlagField } from './config-fields';

/** What the widget does: keeping the conversation, voice in and out, the answer tone and the languages. */
export function BehaviourSection({ form }: { form: ConfigForm }) {
  return (
    <Stack gap="sm">
      <FlagField
        form={form}
        path="behaviour.sessionStorage"
        label="Keep the conversation across page loads"
        description="For the visitor's browser tab (session storage)."
      />
      <FlagField form={form} path="behaviour.microphone_enabled" label="Voice input (microphone)" />
      <FlagField form={form} path="behaviour.speaker_enabled" label="Read answers aloud (speaker)" />
      <FlagField form={form} path="behaviour.muted" label="Start muted" />
      <Select
        label="Voice"
        description="Native uses the visitor's browser; server uses the speech service when one is configured."
        data={[
          { value: 'native', label: 'Native (browser)' },
          { value: 'server', label: 'Server' },
        ]}
        allowDeselect={false}
        key={form.key('behaviour.voice')}
        {...form.getInputProps('behaviour.voice')}
      />
      <FlagField
        form={form}
        path="behaviour.msgRecvTone_enabled"
        label="Play a tone when an answer arrives"
      />
      <TextInput
        label="Tone (audio file URL)"
        placeholder="https://"
        key={form.key('behaviour.msgRecvTone')}
        {...form.getInputProps('behaviour.msgRecvTone')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Default language"
          description="A code such as en, fr or pt-BR."
          key={form.key('language.default_language')}
          {...form.getInputProps('language.default_language')}
        />
        <TextInput
          label="Fallback language"
          key={form.key('language.fallback_language')}
          {...form.getInputProps('language.fallback_language')}
        />
      </SimpleGrid>
    </Stack>
  );
}
