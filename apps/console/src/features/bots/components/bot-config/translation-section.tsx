import { Alert, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import {
  CHAT_TRANSLATE_ENGINES,
  isMaskedSecret,
  offersTranslation,
  textTranslatorOf,
  type WidgetConfig,
} from '@omnibot/contracts';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { type ChangeEvent, useState } from 'react';
import { type KeyAction, StoredKeyField } from '../../../../components/forms/stored-key-field';
import { useChatModelOptions } from '../../api/bots-api';
import type { ConfigForm } from './config-editor-context';
import { ServiceTestButton } from './service-test-button';

const TRANSLATORS = [
  { value: 'builtin', label: 'A chat model' },
  { value: 'libretranslate', label: 'A LibreTranslate server' },
  { value: 'google', label: 'Google Cloud Translation' },
  { value: 'aws', label: 'Amazon Translate' },
  { value: 'dialogflowcx', label: 'The Dialogflow CX agent, else a fallback translator' },
];

/** The translators a Dialogflow CX agent leaves the rest of the translating to. */
const FALLBACK_TRANSLATORS = TRANSLATORS.filter((option) => option.value !== 'dialogflowcx');

/** Why automatic translation cannot be switched on yet, or null when the bot has a translator. */
function missingTranslator(values: WidgetConfig): string | null {
  if (offersTranslation(values)) return null;
  const { botEngine } = values.engines;
  const translateEngine = textTranslatorOf(values);
  if (translateEngine === 'libretranslate') return 'Enter the address of the LibreTranslate server first.';
  if (translateEngine === 'google') {
    return 'Enter a Google service account key or API key under Cloud accounts first.';
  }
  if (translateEngine === 'aws') return 'Enter the AWS access key and secret under Cloud accounts first.';
  if (CHAT_TRANSLATE_ENGINES.includes(translateEngine)) {
    return botEngine === 'openai'
      ? 'Choose the chat model under Engines first: it answers and translates.'
      : 'Choose the chat model that translates first, or a LibreTranslate server.';
  }
  return 'Choose a translator first: a chat model or a LibreTranslate server.';
}

/**
 * Automatic translation and what translates: the bot's chat model or a LibreTranslate server. The switch stays off
 * until a translator is chosen, and says why. A stored LibreTranslate key is only ever sent to the address it was
 * entered for, so changing the address asks for the key again.
 */
export function TranslationSection({ form }: { form: ConfigForm }) {
  const values = form.getValues();
  const stored = form.getInitialValues().libretranslate;
  const models = useChatModelOptions();
  const hasStoredKey = isMaskedSecret(stored.apiKey);
  const [keyAction, setKeyAction] = useState<KeyAction>('keep');
  const { translateEngine: chosenEngine, botEngine, model_id: modelId } = values.engines;
  // Under Dialogflow CX, its fallback translator's settings are the ones that matter here.
  const translateEngine = textTranslatorOf(values);
  const isChat = CHAT_TRANSLATE_ENGINES.includes(translateEngine);
  const isLibre = translateEngine === 'libretranslate';
  const reason = missingTranslator(values);
  const addressChanged = values.libretranslate.url !== stored.url;
  // Older configurations name the chat model translator `openai`; it is the same translator as `builtin`.
  const translators =
    chosenEngine === 'openai'
      ? TRANSLATORS.map((option) => (option.value === 'builtin' ? { ...option, value: 'openai' } : option))
      : TRANSLATORS;
  const modelOptions = (models.data?.items ?? []).map((model) => ({
    value: model.id,
    label: `${model.name} (${model.model_name})`,
  }));
  if (modelId !== null && !modelOptions.some((option) => option.value === modelId)) {
    modelOptions.push({ value: modelId, label: models.isPending ? 'Loading…' : 'No longer available' });
  }

  const chooseKeyAction = (action: KeyAction) => {
    setKeyAction(action);
    form.setFieldValue('libretranslate.apiKey', action === 'keep' ? stored.apiKey : '');
  };

  const urlProps = form.getInputProps('libretranslate.url');
  const onUrlChange = (event: ChangeEvent<HTMLInputElement>) => {
    const url = event.currentTarget.value;
    form.setFieldValue('libretranslate.url', url);
    // The stored key is bound to the address it was entered for: a new address needs the key entered again.
    if (hasStoredKey && url !== stored.url && keyAction === 'keep') chooseKeyAction('replace');
  };

  return (
    <Stack gap="sm">
      <Select
        label="Translator"
        description="What translates the visitor's questions, the answers and the widget's own texts."
        data={translators}
        allowDeselect={false}
        key={form.key('engines.translateEngine')}
        {...form.getInputProps('engines.translateEngine')}
      />
      {chosenEngine === 'dialogflowcx' && (
        <Select
          label="Fallback translator"
          description="Translates what the Dialogflow CX agent cannot answer in the visitor's language, and the widget's texts."
          data={FALLBACK_TRANSLATORS}
          allowDeselect={false}
          key={form.key('engines.translateFallback')}
          {...form.getInputProps('engines.translateFallback')}
        />
      )}
      {(translateEngine === 'google' || translateEngine === 'aws') && (
        <Text size="sm" c="dimmed">
          {translateEngine === 'google'
            ? 'Uses the Google Cloud account under Cloud accounts (v3 with a service account, v2 with an API key).'
            : 'Uses the AWS account under Cloud accounts, with formal wording and profanity masked.'}
        </Text>
      )}
      {isChat && botEngine === 'openai' && (
        <Text size="sm" c="dimmed">
          The chat model that answers (under Engines) translates too.
        </Text>
      )}
      {isChat && botEngine !== 'openai' && (
        <>
          <Select
            label="Chat model for translation"
            placeholder={models.isPending ? 'Loading models…' : 'Choose a chat model'}
            data={modelOptions}
            searchable
            clearable
            key={form.key('engines.model_id')}
            {...form.getInputProps('engines.model_id')}
          />
          {models.data?.items.length === 0 && (
            <Alert color="yellow" icon={<IconAlertCircle />} title="No chat model offered">
              Add a chat model under Models, or use a LibreTranslate server.
            </Alert>
          )}
        </>
      )}
      {isLibre && (
        <>
          <TextInput
            label="LibreTranslate address"
            description="The server's base address; the bot calls its /detect and /translate."
            placeholder="https://libretranslate.example.com"
            key={form.key('libretranslate.url')}
            {...urlProps}
            onChange={onUrlChange}
          />
          <StoredKeyField
            stored={hasStoredKey && !addressChanged}
            mask={stored.apiKey}
            removable={hasStoredKey}
            action={keyAction}
            onAction={chooseKeyAction}
            inputProps={form.getInputProps('libretranslate.apiKey')}
          />
          {hasStoredKey && addressChanged && (
            <Alert color="blue" icon={<IconInfoCircle />} title="Enter the API key again">
              The stored key is only sent to the address it was entered for. Enter the key for the new
              address, or leave it empty for a server that needs none.
            </Alert>
          )}
        </>
      )}
      <ServiceTestButton form={form} service="translate" />
      <Switch
        label="Translate automatically"
        description={
          reason ??
          "Detects the visitor's language and translates questions, answers and the widget's own texts."
        }
        disabled={reason !== null}
        key={form.key('language.autoTranslate')}
        {...form.getInputProps('language.autoTranslate', { type: 'checkbox' })}
      />
      <Switch
        label="Translate live-agent conversations"
        description="When a person answers, the visitor's messages reach them in their own language and their replies reach the visitor in theirs; both texts are kept."
        disabled={reason !== null}
        key={form.key('language.autoAgentTranslate')}
        {...form.getInputProps('language.autoAgentTranslate', { type: 'checkbox' })}
      />
    </Stack>
  );
}
