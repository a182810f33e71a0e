import { Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { ConfigForm } from './config-editor-context';
import { FlagField } from './config-fields';
import { ServiceTestButton } from './service-test-button';

const SERVER_VOICES = [
  { value: 'model', label: 'The speech model (under Engines)' },
  { value: 'polly', label: 'Amazon Polly' },
  { value: 'google', label: 'Google Text-to-Speech' },
];

const POLLY_ENGINES = [
  { value: '', label: "The voice's default" },
  { value: 'standard', label: 'Standard' },
  { value: 'neural', label: 'Neural' },
  { value: 'long-form', label: 'Long-form' },
  { value: 'generative', label: 'Generative' },
];

/** What the widget does: keeping the conversation, voice in and out, the answer tone and the languages. */
export function BehaviourSection({ form }: { form: ConfigForm }) {
  const { voice, useAWSTTS, useGoogleTTS } = form.getValues().behaviour;
  const serverVoice = useAWSTTS ? 'polly' : useGoogleTTS ? 'google' : 'model';
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
      {voice === 'server' && (
        <>
          <Select
            label="Server voice"
            description="Who reads the answers aloud; the same text in the same voice is read once a day and then cached."
            data={SERVER_VOICES}
            allowDeselect={false}
            value={serverVoice}
            onChange={(value) => {
              form.setFieldValue('behaviour.useAWSTTS', value === 'polly');
              form.setFieldValue('behaviour.useGoogleTTS', value === 'google');
            }}
          />
          {serverVoice === 'polly' && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Polly voice"
                description="For example Joanna or Lea (Joanna when empty)."
                key={form.key('aws.polly.voiceId')}
                {...form.getInputProps('aws.polly.voiceId')}
              />
              <Select
                label="Polly engine"
                data={POLLY_ENGINES}
                allowDeselect={false}
                key={form.key('aws.polly.engine')}
                {...form.getInputProps('aws.polly.engine')}
              />
            </SimpleGrid>
          )}
          {serverVoice === 'google' && (
            <TextInput
              label="Google voice"
              description="A voice name such as en-US-Standard-C; empty: Google's default for the bot's language."
              key={form.key('google.ttsVoice')}
              {...form.getInputProps('google.ttsVoice')}
            />
          )}
          {serverVoice !== 'model' && (
            <Text size="sm" c="dimmed">
              The keys are entered under Cloud accounts.
            </Text>
          )}
          <ServiceTestButton form={form} service="tts" />
        </>
      )}
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
