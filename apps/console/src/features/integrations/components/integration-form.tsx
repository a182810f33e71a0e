import { Alert, Anchor, Group, NumberInput, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ChatbotIntegrationEngine, Integration } from '@omnibot/contracts';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { StoredKeyField } from '../../../components/forms/stored-key-field';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { ApiError } from '../../../lib/api-client';
import {
  useCreateIntegration,
  useRagOptions,
  useTestIntegration,
  useUpdateIntegration,
} from '../api/integrations-api';
import {
  createBodyOf,
  emptyIntegrationForm,
  ENGINE_LABELS,
  integrationFormOf,
  type IntegrationFormValues,
  keyMaskOf,
  testBodyOf,
  updateBodyOf,
  movedKeyError,
  validateIntegrationForm,
} from '../utils/integration-form';
import { integrationPaths } from '../utils/integration-paths';
import { AwsEngineForm, ChatbotEngineSwitch } from './aws-engine-form';
import { DialogflowForm } from './dialogflow-form';
import { IntegrationFormFooter } from './integration-form-footer';
import type { IntegrationTestState } from './integration-test-result';

interface IntegrationFormProps {
  /** The integration to change; a new one when left out. */
  integration?: Integration;
  /** The engine a new integration starts with. */
  initialEngine?: ChatbotIntegrationEngine;
  onSaved: (integration: Integration) => void;
  /** Buttons before the submit button (delete...). */
  actions?: ReactNode;
}

function useIntegrationForm(
  initialValues: IntegrationFormValues,
  stored: Integration | undefined,
  onEngineChange: () => void,
) {
  return useForm<IntegrationFormValues>({
    initialValues,
    validate: (values) => validateIntegrationForm(values, stored),
    validateInputOnBlur: true,
    onValuesChange: (values, previous) => {
      if (values.engine !== previous.engine) onEngineChange();
    },
  });
}
type IntegrationFormApi = ReturnType<typeof useIntegrationForm>;

/** The RAG picker of a builtin integration, or why there is nothing to pick. */
function RagPicker({ form }: { form: IntegrationFormApi }) {
  const rags = useRagOptions(true);
  if (rags.isError && rags.error instanceof ApiError && rags.error.status === 403) {
    return (
      <Alert color="yellow" icon={<IconInfoCircle />} title="No Omni RAG subscription">
        Builtin answers come from a RAG, which needs the Omni RAG subscription. Ask your administrator for it,
        or connect an OpenAI-compatible endpoint instead.
      </Alert>
    );
  }
  if (rags.data?.items.length === 0) {
    return (
      <Alert color="blue" icon={<IconInfoCircle />} title="No RAG yet">
        A builtin integration answers from one of your RAGs.{' '}
        <Anchor component={Link} to={integrationPaths.rags} inherit>
          Create a RAG
        </Anchor>{' '}
        first, then come back here.
      </Alert>
    );
  }
  return (
    <Select
      label="RAG"
      description="The bots answer from this RAG's index, with its prompt and model."
      placeholder={rags.isPending ? 'Loading the RAGs…' : 'Choose a RAG'}
      data={(rags.data?.items ?? []).map((rag) => ({ value: rag.id, label: rag.name }))}
      searchable
      nothingFoundMessage="No RAG has that name"
      withAsterisk
      {...form.getInputProps('rag_id')}
    />
  );
}

/** The API key of an OpenAI-compatible integration: write-only, shown masked once stored. */
function KeyField({ form, integration }: { form: IntegrationFormApi; integration: Integration | undefined }) {
  const action = form.values.key_action;
  const setAction = (next: IntegrationFormValues['key_action']) => {
    form.setFieldValue('key_action', next);
    form.setFieldValue('api_key', '');
    form.clearFieldError('api_key');
  };
  const stored = keyMaskOf(integration);
  return (
    <StoredKeyField
      stored={integration !== undefined}
      mask={stored}
      removable={stored !== 'No key stored'}
      action={action}
      onAction={setAction}
      inputProps={form.getInputProps('api_key')}
      keepError={movedKeyError(form.values, integration)}
    />
  );
}

/**
 * Add or change a chatbot-engine integration, and test its connection before or after saving. Dialogflow CX, Lex and
 * Bedrock have forms of their own; a new integration switches between them with the engine switch.
 */
export function IntegrationForm(props: IntegrationFormProps) {
  const [engine, setEngine] = useState<ChatbotIntegrationEngine>(
    props.integration && props.integration.kind === 'chatbot'
      ? (props.integration.engine as ChatbotIntegrationEngine)
      : (props.initialEngine ?? 'openai'),
  );
  // The name typed before the engine was switched to another form.
  const [name, setName] = useState('');
  const switchTo = (next: ChatbotIntegrationEngine, typed: string) => {
    setName(typed);
    setEngine(next);
  };
  const isNew = props.integration === undefined;
  if (engine === 'dialogflowcx') {
    return (
      <DialogflowForm
        {...(props.integration ? { integration: props.integration } : {})}
        onSaved={props.onSaved}
        actions={props.actions}
        {...(isNew ? { engineSwitch: <ChatbotEngineSwitch value={engine} onChange={setEngine} /> } : {})}
      />
    );
  }
  if (isNew && (engine === 'lex' || engine === 'bedrock')) {
    return (
      <AwsEngineForm
        initialEngine={engine}
        initialName={name}
        onSaved={props.onSaved}
        onOtherEngine={switchTo}
      />
    );
  }
  return <ChatEngineForm {...props} initialEngine={engine} initialName={name} onEngineChange={switchTo} />;
}

/** The builtin and OpenAI-compatible engines' settings. */
function ChatEngineForm({
  integration,
  initialEngine,
  onSaved,
  actions,
  initialName,
  onEngineChange,
}: IntegrationFormProps & {
  initialName: string;
  onEngineChange: (engine: ChatbotIntegrationEngine, name: string) => void;
}) {
  const isNew = integration === undefined;
  const create = useCreateIntegration();
  const update = useUpdateIntegration(integration?.id ?? '');
  const tester = useTestIntegration();
  const [test, setTest] = useState<IntegrationTestState>({ status: 'idle' });
  const form = useIntegrationForm(
    integration
      ? integrationFormOf(integration)
      : { ...emptyIntegrationForm(initialEngine), name: initialName },
    integration,
    () => setTest({ status: 'idle' }),
  );
  const { values } = form;
  const onTest = async () => {
    if (form.validate().hasErrors) return;
    setTest({ status: 'running' });
    try {
      const result = await tester.mutateAsync({ body: testBodyOf(form.values, integration) });
      setTest({ status: 'done', result });
    } catch (error) {
      setTest({ status: 'idle' });
      notifyError(error, 'The connection could not be tested');
    }
  };

  const onSubmit = async (submitted: IntegrationFormValues) => {
    let saved: Integration;
    try {
      saved = isNew
        ? await create.mutateAsync(createBodyOf(submitted))
        : await update.mutateAsync(updateBodyOf(submitted, integration));
    } catch (error) {
      notifyError(error, isNew ? 'The integration was not added' : 'The integration was not saved');
      return;
    } finally {
      // The key typed in lives nowhere once the request is over.
      form.setFieldValue('api_key', '');
    }
    notifySuccess(
      `${saved.name} was ${isNew ? 'added' : 'saved'}.`,
      isNew ? 'Integration added' : 'Integration saved',
    );
    form.setFieldValue('key_action', 'keep');
    onSaved(saved);
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
      <form noValidate onSubmit={form.onSubmit((submitted) => void onSubmit(submitted))}>
        <Stack gap="md">
          <TextInput label="Name" withAsterisk maxLength={120} {...form.getInputProps('name')} />
          {isNew ? (
            <ChatbotEngineSwitch
              value={values.engine === 'builtin' ? 'builtin' : 'openai'}
              onChange={(next) =>
                next === 'builtin' || next === 'openai'
                  ? form.setFieldValue('engine', next)
                  : onEngineChange(next, values.name)
              }
            />
          ) : (
            <Text size="sm">
              Engine: <strong>{ENGINE_LABELS[integration.engine]}</strong>
            </Text>
          )}
          {values.engine === 'builtin' ? (
            <RagPicker form={form} />
          ) : (
            <>
              <TextInput
                label="Base URL"
                description="Where the OpenAI-compatible API lives, e.g. https://api.openai.com/v1"
                placeholder="https://api.openai.com/v1"
                withAsterisk
                {...form.getInputProps('base_url')}
              />
              <TextInput
                label="Model"
                description="The model name the endpoint knows, e.g. gpt-4o-mini"
                withAsterisk
                {...form.getInputProps('model')}
              />
              <KeyField form={form} integration={integration} />
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
                  max={2}
                  step={0.1}
                  decimalScale={2}
                  {...form.getInputProps('temperature')}
                />
              </Group>
            </>
          )}
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
