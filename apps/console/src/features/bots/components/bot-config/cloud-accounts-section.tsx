import { Alert, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { isMaskedSecret, isSameSecretEndpoint, WIDGET_CONFIG_SECRET_ENDPOINTS } from '@omnibot/contracts';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { type KeyAction, StoredKeyField } from '../../../../components/forms/stored-key-field';
import type { ConfigForm } from './config-editor-context';

type SecretPath = 'google.serviceAccountKey' | 'google.apiKey' | 'aws.key' | 'aws.secret';

function storedAt(form: ConfigForm, path: string): string {
  const [group = '', field = ''] = path.split('.');
  const value = (form.getInitialValues() as unknown as Record<string, Record<string, unknown>>)[group]?.[
    field
  ];
  return typeof value === 'string' ? value : '';
}

function currentAt(form: ConfigForm, path: string): string {
  const [group = '', field = ''] = path.split('.');
  const value = (form.getValues() as unknown as Record<string, Record<string, unknown>>)[group]?.[field];
  return typeof value === 'string' ? value : '';
}

/** A secret of the configuration: typed once, then only shown masked, kept, replaced or removed. */
function ConfigSecretField({
  form,
  path,
  label,
  description,
}: {
  form: ConfigForm;
  path: SecretPath;
  label: string;
  description: string;
}) {
  const stored = storedAt(form, path);
  const hasStored = isMaskedSecret(stored);
  const [action, setAction] = useState<KeyAction>('keep');
  // A kept secret goes only to the addresses it was entered for (the server refuses it elsewhere).
  const moved = (WIDGET_CONFIG_SECRET_ENDPOINTS[path] ?? []).some(
    (address) => !isSameSecretEndpoint(storedAt(form, address), currentAt(form, address)),
  );
  const choose = (next: KeyAction) => {
    setAction(next);
    form.setFieldValue(path, next === 'keep' ? stored : '');
  };
  return (
    <StoredKeyField
      stored={hasStored}
      mask={stored}
      removable={hasStored}
      action={action}
      onAction={choose}
      label={label}
      description={description}
      keepError={moved ? 'An address this key is sent to changed: enter the key again or remove it.' : null}
      inputProps={form.getInputProps(path)}
    />
  );
}

/**
 * The Google Cloud and AWS accounts a bot's cloud translators and voices use: the keys (stored encrypted, shown
 * masked, sent only to the addresses they were entered for) and the endpoint overrides.
 */
export function CloudAccountsSection({ form }: { form: ConfigForm }) {
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Used by Google or AWS translation and voices (chosen under Translation and Behaviour). Keys are stored
        encrypted and never shown again.
      </Text>
      <Title order={4}>Google Cloud</Title>
      <ConfigSecretField
        form={form}
        path="google.serviceAccountKey"
        label="Service account key"
        description="Paste the whole key file (JSON). Cloud Translation v3 and Text-to-Speech use it."
      />
      <ConfigSecretField
        form={form}
        path="google.apiKey"
        label="Google API key"
        description="Instead of a service account: Cloud Translation v2 and Text-to-Speech with an API key."
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Translation endpoint"
          description="Empty: https://translation.googleapis.com"
          placeholder="https://translation.googleapis.com"
          key={form.key('google.translate_url')}
          {...form.getInputProps('google.translate_url')}
        />
        <TextInput
          label="Text-to-Speech endpoint"
          description="Empty: https://texttospeech.googleapis.com"
          placeholder="https://texttospeech.googleapis.com"
          key={form.key('google.tts_url')}
          {...form.getInputProps('google.tts_url')}
        />
      </SimpleGrid>
      <Title order={4}>Amazon Web Services</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ConfigSecretField
          form={form}
          path="aws.key"
          label="Access key id"
          description="Needs translate:TranslateText and polly:SynthesizeSpeech."
        />
        <ConfigSecretField
          form={form}
          path="aws.secret"
          label="Secret access key"
          description="Signs each request; never sent itself."
        />
      </SimpleGrid>
      <TextInput
        label="Region"
        description="For example us-west-2."
        key={form.key('aws.region')}
        {...form.getInputProps('aws.region')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Translate endpoint"
          description="Empty: the region's own."
          placeholder="https://translate.us-west-2.amazonaws.com"
          key={form.key('aws.translate_url')}
          {...form.getInputProps('aws.translate_url')}
        />
        <TextInput
          label="Polly endpoint"
          description="Empty: the region's own."
          placeholder="https://polly.us-west-2.amazonaws.com"
          key={form.key('aws.polly_url')}
          {...form.getInputProps('aws.polly_url')}
        />
      </SimpleGrid>
      <Alert color="blue" icon={<IconInfoCircle />} variant="light">
        Changing an endpoint asks for the keys again: a stored key is only sent where it was entered for.
      </Alert>
    </Stack>
  );
}
