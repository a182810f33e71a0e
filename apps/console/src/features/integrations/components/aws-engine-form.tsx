import {
  Accordion,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { BEDROCK_AUTH_MODES, type Integration } from '@omnibot/contracts';
import { useState, type ReactNode } from 'react';
import { type KeyAction, StoredKeyField } from '../../../components/forms/stored-key-field';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useCreateIntegration, useTestIntegration, useUpdateIntegration } from '../api/integrations-api';
import {
  AWS_ENGINE_LABELS,
  type AwsEngine,
  type AwsEngineFormValues,
  awsEngineFormOf,
  createAwsEngineBodyOf,
  emptyAwsEngineForm,
  movedAwsSecretError,
  secretMasksOf,
  testAwsEngineBodyOf,
  updateAwsEngineBodyOf,
  validateAwsEngineForm,
} from '../utils/aws-engine-form';
import { ENGINE_LABELS } from '../utils/integration-form';
import { IntegrationFormFooter } from './integration-form-footer';
import type { IntegrationTestState } from './integration-test-result';

/** The chatbot engines a new integration may have, in the order the engine switch shows them. */
const CHATBOT_ENGINE_CHOICES = ['openai', 'builtin', 'dialogflowcx', 'lex', 'bedrock'] as const;
export type ChatbotEngineChoice = (typeof CHATBOT_ENGINE_CHOICES)[number];

/** The switch between the chatbot engines of a new integration (each engine's form lives in its own component). */
export function ChatbotEngineSwitch({
  value,
  onChange,
}: {
  value: ChatbotEngineChoice;
  onChange: (engine: ChatbotEngineChoice) => void;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="integration-engine-label">
        Engine
      </Text>
      <SegmentedControl
        aria-labelledby="integration-engine-label"
        data={CHATBOT_ENGINE_CHOICES.map((engine) => ({ value: engine, label: ENGINE_LABELS[engine] }))}
        value={value}
        onChange={onChange}
        style={{ overflowX: 'auto', maxWidth: '100%' }}
      />
    </Stack>
  );
}

interface AwsEngineFormProps {
  /** The integration to change; a new one when left out. */
  integration?: Integration;
  /** The engine a new integration starts with. */
  initialEngine?: AwsEngine;
  /** The name typed before the engine was switched to this form. */
  initialName?: string;
  onSaved: (integration: Integration) => void;
  /** A new integration switched to OpenAI-compatible, builtin or Dialogflow CX (another form). */
  onOtherEngine?: (engine: 'openai' | 'builtin' | 'dialogflowcx', name: string) => void;
  /** Buttons before the test button (delete...). */
  actions?: ReactNode;
}

function useAwsEngineForm(
  values: AwsEngineFormValues,
  stored: Integration | undefined,
  onChange: () => void,
) {
  return useForm<AwsEngineFormValues>({
    initialValues: values,
    validate: (current) => validateAwsEngineForm(current, stored),
    validateInputOnBlur: true,
    onValuesChange: (current, previous) => {
      if (current.engine !== previous.engine || current.auth !== previous.auth) onChange();
    },
  });
}
type AwsEngineFormApi = ReturnType<typeof useAwsEngineForm>;

function SecretField({
  form,
  integration,
  field,
}: {
  form: AwsEngineFormApi;
  integration: Integration | undefined;
  field: 'secret_access_key' | 'api_key';
}) {
  const actionField = field === 'api_key' ? 'api_key_action' : 'secret_action';
  const masks = secretMasksOf(integration);
  const mask = field === 'api_key' ? masks.apiKey : masks.secret;
  const setAction = (next: KeyAction) => {
    form.setFieldValue(actionField, next);
    form.setFieldValue(field, '');
    form.clearFieldError(field);
  };
  return (
    <StoredKeyField
      label={field === 'api_key' ? 'Bedrock API key' : 'Secret access key'}
      description="Stored encrypted and never shown again; sent only to the region or endpoint it is entered for."
      stored={integration !== undefined}
      mask={mask}
      removable={!mask.startsWith('No ')}
      action={form.values[actionField]}
      onAction={setAction}
      inputProps={form.getInputProps(field)}
      keepError={movedAwsSecretError(form.values, integration)}
    />
  );
}

function LexFields({ form }: { form: AwsEngineFormApi }) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label="Bot id" placeholder="ABCDEF1234" withAsterisk {...form.getInputProps('bot_id')} />
        <TextInput
          label="Alias id"
          description="TSTALIASID for the draft."
          withAsterisk
          {...form.getInputProps('bot_alias_id')}
        />
        <TextInput label="Locale" placeholder="en_US" withAsterisk {...form.getInputProps('locale_id')} />
      </SimpleGrid>
      <TextInput
        label="Hand-over intent"
        description="When Lex chooses this intent the visitor is handed to a person (leave empty for none)."
        {...form.getInputProps('handover_intent')}
      />
    </>
  );
}

function BedrockFields({ form }: { form: AwsEngineFormApi }) {
  return (
    <>
      <TextInput
        label="Model id"
        description="A model or inference profile your account may use, e.g. anthropic.claude-3-haiku-20240307-v1:0"
        withAsterisk
        {...form.getInputProps('model')}
      />
      <Group grow align="flex-start" wrap="wrap">
        <NumberInput
          label="Max tokens"
          min={1}
          max={32768}
          allowDecimal={false}
          {...form.getInputProps('max_tokens')}
        />
        <NumberInput
          label="Temperature"
          min={0}
          max={1}
          step={0.1}
          decimalScale={2}
          {...form.getInputProps('temperature')}
        />
      </Group>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="bedrock-auth-label">
          Authentication
        </Text>
        <SegmentedControl
          aria-labelledby="bedrock-auth-label"
          data={BEDROCK_AUTH_MODES.map((mode) => ({
            value: mode,
            label: mode === 'sigv4' ? 'Access keys (SigV4)' : 'Bedrock API key',
          }))}
          {...form.getInputProps('auth')}
        />
      </Stack>
    </>
  );
}

/** Add or change an Amazon Lex V2 or Amazon Bedrock integration, and test it before or after saving. */
export function AwsEngineForm({
  integration,
  initialEngine,
  initialName,
  onSaved,
  onOtherEngine,
  actions,
}: AwsEngineFormProps) {
  const isNew = integration === undefined;
  const create = useCreateIntegration();
  const update = useUpdateIntegration(integration?.id ?? '');
  const tester = useTestIntegration();
  const [test, setTest] = useState<IntegrationTestState>({ status: 'idle' });
  const form = useAwsEngineForm(
    integration ? awsEngineFormOf(integration) : emptyAwsEngineForm(initialEngine, initialName),
    integration,
    () => setTest({ status: 'idle' }),
  );
  const { values } = form;
  const usesKeys = values.engine === 'lex' || values.auth === 'sigv4';

  const forget = () => {
    // A secret typed in lives nowhere once the request is over.
    form.setFieldValue('secret_access_key', '');
    form.setFieldValue('api_key', '');
  };

  const onTest = async () => {
    if (form.validate().hasErrors) return;
    setTest({ status: 'running' });
    try {
      setTest({
        status: 'done',
        result: await tester.mutateAsync({ body: testAwsEngineBodyOf(form.values, integration) }),
      });
    } catch (error) {
      setTest({ status: 'idle' });
      notifyError(error, 'The connection could not be tested');
    }
  };

  const onSubmit = async (submitted: AwsEngineFormValues) => {
    let saved: Integration;
    try {
      saved = isNew
        ? await create.mutateAsync(createAwsEngineBodyOf(submitted))
        : await update.mutateAsync(updateAwsEngineBodyOf(submitted, integration));
    } catch (error) {
      notifyError(error, isNew ? 'The integration was not added' : 'The integration was not saved');
      return;
    } finally {
      forget();
    }
    notifySuccess(
      `${saved.name} was ${isNew ? 'added' : 'saved'}.`,
      isNew ? 'Integration added' : 'Integration saved',
    );
    form.setFieldValue('secret_action', 'keep');
    form.setFieldValue('api_key_action', 'keep');
    onSaved(saved);
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
      <form noValidate onSubmit={form.onSubmit((submitted) => void onSubmit(submitted))}>
        <Stack gap="md">
          <TextInput label="Name" withAsterisk maxLength={120} {...form.getInputProps('name')} />
          {isNew ? (
            <ChatbotEngineSwitch
              value={values.engine}
              onChange={(engine) => {
                if (engine === 'lex' || engine === 'bedrock') form.setFieldValue('engine', engine);
                else onOtherEngine?.(engine, values.name);
              }}
            />
          ) : (
            <Text size="sm">
              Engine: <strong>{AWS_ENGINE_LABELS[values.engine]}</strong>
            </Text>
          )}
          {values.engine === 'lex' ? <LexFields form={form} /> : <BedrockFields form={form} />}
          <TextInput label="Region" placeholder="us-west-2" withAsterisk {...form.getInputProps('region')} />
          {usesKeys ? (
            <>
              <TextInput
                label="Access key id"
                description={
                  values.engine === 'lex'
                    ? 'Of an IAM user allowed lex:RecognizeText on this bot alias.'
                    : 'Of an IAM user allowed bedrock:InvokeModel (and InvokeModelWithResponseStream) on this model.'
                }
                withAsterisk
                {...form.getInputProps('access_key_id')}
              />
              <SecretField form={form} integration={integration} field="secret_access_key" />
            </>
          ) : (
            <SecretField form={form} integration={integration} field="api_key" />
          )}
          <Accordion variant="separated" chevronPosition="left">
            <Accordion.Item value="advanced">
              <Accordion.Control>Advanced</Accordion.Control>
              <Accordion.Panel>
                <TextInput
                  label={values.engine === 'lex' ? 'Lex runtime endpoint' : 'Bedrock runtime endpoint'}
                  description="Leave empty for the region's own address. A changed address needs the secret entered again."
                  placeholder={
                    values.engine === 'lex'
                      ? 'https://runtime-v2-lex.us-west-2.amazonaws.com'
                      : 'https://bedrock-runtime.us-west-2.amazonaws.com'
                  }
                  {...form.getInputProps('endpoint')}
                />
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
          <IntegrationFormFooter
            test={test}
            onTest={() => void onTest()}
            onCloseTest={() => setTest({ status: 'idle' })}
            isNew={isNew}
            isSaving={create.isPending || update.isPending}
            actions={actions}
          />
        </Stack>
      </form>
    </Paper>
  );
}
