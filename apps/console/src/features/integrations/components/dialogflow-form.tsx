import {
  Accordion,
  ActionIcon,
  Button,
  Code,
  FileInput,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { DIALOGFLOW_AGENTS_MAX, type Integration } from '@omnibot/contracts';
import { IconArrowBackUp, IconFileUpload, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useCreateIntegration, useTestIntegration, useUpdateIntegration } from '../api/integrations-api';
import {
  createDialogflowBodyOf,
  type DialogflowFormValues,
  dialogflowFormOf,
  dialogflowSettingsOf,
  emptyAgent,
  emptyDialogflowForm,
  movedDialogflowKeyError,
  readKeyFile,
  testDialogflowBodyOf,
  updateDialogflowBodyOf,
  validateDialogflowForm,
} from '../utils/dialogflow-form';
import { IntegrationFormFooter } from './integration-form-footer';
import type { IntegrationTestState } from './integration-test-result';

interface DialogflowFormProps {
  /** The integration to change; a new one when left out. */
  integration?: Integration;
  onSaved: (integration: Integration) => void;
  /** Buttons before the test button (delete...). */
  actions?: ReactNode;
  /** Shown above the settings of a new integration: the choice of engine. */
  engineSwitch?: ReactNode;
}

function useDialogflowForm(values: DialogflowFormValues, stored: Integration | undefined) {
  return useForm<DialogflowFormValues>({
    initialValues: values,
    validate: (current) => validateDialogflowForm(current, stored),
    validateInputOnBlur: true,
  });
}
type DialogflowFormApi = ReturnType<typeof useDialogflowForm>;

/** The service-account key: a JSON file read in the browser and checked before anything is sent. */
function KeyUpload({ form, integration }: { form: DialogflowFormApi; integration: Integration | undefined }) {
  const [account, setAccount] = useState('');
  const stored = dialogflowSettingsOf(integration);
  const onFile = async (file: File | null) => {
    form.setFieldValue('key_file_name', file?.name ?? '');
    form.setFieldValue('key_text', '');
    setAccount('');
    if (!file) return;
    const read = await readKeyFile(file);
    if ('error' in read) {
      form.setFieldError('key_text', read.error);
      return;
    }
    form.setFieldValue('key_text', read.text);
    form.clearFieldError('key_text');
    setAccount(read.email);
    // A first agent without a project takes the key's.
    const first = form.values.agents[0];
    if (read.projectId && first && first.projectId === '')
      form.setFieldValue('agents.0.projectId', read.projectId);
  };
  const upload = (
    <Stack gap={4}>
      <FileInput
        label={stored ? 'New service account key' : 'Service account key'}
        description="The JSON key file of a Google Cloud service account with the Dialogflow API Client role. It is stored encrypted and never shown again."
        placeholder="Choose the .json key file"
        accept="application/json,.json"
        leftSection={<IconFileUpload size={16} aria-hidden="true" />}
        clearable
        withAsterisk={!stored}
        error={form.errors.key_text}
        onChange={(file) => void onFile(file)}
      />
      {account && (
        <Text size="sm" c="dimmed">
          Key of <Code>{account}</Code>
        </Text>
      )}
    </Stack>
  );
  if (!stored) return upload;
  if (form.values.key_action === 'replace') {
    return (
      <Stack gap={6}>
        {upload}
        <Group>
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconArrowBackUp size={14} aria-hidden="true" />}
            onClick={() => {
              form.setFieldValue('key_action', 'keep');
              form.setFieldValue('key_text', '');
              form.clearFieldError('key_text');
            }}
          >
            Keep the stored key
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} component="div">
        Service account key
      </Text>
      <Group gap="sm" wrap="wrap">
        <Code>{stored.service_account_key}</Code>
        <Text size="sm" c="dimmed">
          {stored.client_email}
        </Text>
        <Button variant="default" size="xs" onClick={() => form.setFieldValue('key_action', 'replace')}>
          Replace key
        </Button>
      </Group>
    </Stack>
  );
}

/** The agents a bot may talk to: one row each, at least one. */
function AgentsEditor({ form }: { form: DialogflowFormApi }) {
  const agents = form.values.agents;
  return (
    <Stack gap="sm">
      <Text size="sm" fw={500}>
        Agents
      </Text>
      {agents.map((_, index) => (
        <Paper key={index} withBorder p="sm" radius="sm">
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" c="dimmed">
                Agent {index + 1}
              </Text>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove agent ${index + 1}`}
                disabled={agents.length === 1}
                onClick={() => form.removeListItem('agents', index)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Agent name"
                description="How bots and this form name it."
                withAsterisk
                {...form.getInputProps(`agents.${index}.agentName`)}
              />
              <TextInput
                label="Agent id"
                description="The UUID at the end of the agent's name in the Dialogflow CX console."
                withAsterisk
                {...form.getInputProps(`agents.${index}.agentId`)}
              />
              <TextInput
                label="Project id"
                withAsterisk
                {...form.getInputProps(`agents.${index}.projectId`)}
              />
              <TextInput
                label="Location"
                description="global, or a region such as europe-west1."
                {...form.getInputProps(`agents.${index}.location`)}
              />
            </SimpleGrid>
            <TextInput
              label="Agent image"
              description="Optional: the address of the agent's picture."
              {...form.getInputProps(`agents.${index}.agentImage`)}
            />
          </Stack>
        </Paper>
      ))}
      {typeof form.errors.agents === 'string' && (
        <Text size="sm" c="red">
          {form.errors.agents}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden="true" />}
          disabled={agents.length >= DIALOGFLOW_AGENTS_MAX}
          onClick={() => form.insertListItem('agents', emptyAgent(agents[0]?.projectId ?? ''))}
        >
          Add agent
        </Button>
      </Group>
    </Stack>
  );
}

/** Add or change a Dialogflow CX integration, and test its connection before or after saving. */
export function DialogflowForm({ integration, onSaved, actions, engineSwitch }: DialogflowFormProps) {
  const isNew = integration === undefined;
  const create = useCreateIntegration();
  const update = useUpdateIntegration(integration?.id ?? '');
  const tester = useTestIntegration();
  const [test, setTest] = useState<IntegrationTestState>({ status: 'idle' });
  const form = useDialogflowForm(
    integration ? dialogflowFormOf(integration) : emptyDialogflowForm(),
    integration,
  );
  const names = form.values.agents.map((agent) => agent.agentName.trim()).filter((name) => name !== '');
  const agentOptions = [...new Set(names)];

  const onTest = async () => {
    if (form.validate().hasErrors) return;
    setTest({ status: 'running' });
    try {
      setTest({
        status: 'done',
        result: await tester.mutateAsync({ body: testDialogflowBodyOf(form.values, integration) }),
      });
    } catch (error) {
      setTest({ status: 'idle' });
      notifyError(error, 'The connection could not be tested');
    }
  };

  const onSubmit = async (submitted: DialogflowFormValues) => {
    let saved: Integration;
    try {
      saved = isNew
        ? await create.mutateAsync(createDialogflowBodyOf(submitted))
        : await update.mutateAsync(updateDialogflowBodyOf(submitted, integration));
    } catch (error) {
      notifyError(error, isNew ? 'The integration was not added' : 'The integration was not saved');
      return;
    }
    // The key read from the file lives nowhere once it is stored.
    form.setFieldValue('key_text', '');
    form.setFieldValue('key_action', 'keep');
    notifySuccess(
      `${saved.name} was ${isNew ? 'added' : 'saved'}.`,
      isNew ? 'Integration added' : 'Integration saved',
    );
    onSaved(saved);
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
      <form noValidate onSubmit={form.onSubmit((submitted) => void onSubmit(submitted))}>
        <Stack gap="md">
          <TextInput label="Name" withAsterisk maxLength={120} {...form.getInputProps('name')} />
          {engineSwitch ?? (
            <Text size="sm">
              Engine: <strong>Dialogflow CX</strong>
            </Text>
          )}
          <KeyUpload form={form} integration={integration} />
          <AgentsEditor form={form} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Default agent"
              description="The agent that answers the visitors."
              placeholder="The first agent"
              data={agentOptions}
              clearable
              {...form.getInputProps('default_agent')}
              value={form.values.default_agent || null}
              onChange={(value: string | null) => form.setFieldValue('default_agent', value ?? '')}
            />
            <Select
              label="Fallback agent"
              description="Answers when the default agent fails; none to give the fallback text."
              placeholder="None"
              data={agentOptions}
              clearable
              {...form.getInputProps('fallback_agent')}
              value={form.values.fallback_agent || null}
              onChange={(value: string | null) => form.setFieldValue('fallback_agent', value ?? '')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Default language"
              description="Sent when the visitor's language is not one the agents take."
              {...form.getInputProps('language_code')}
            />
            <TagsInput
              label="Languages the agents take"
              description="Empty: the visitor's language is always sent."
              placeholder="en, fr, pt-BR…"
              {...form.getInputProps('languages')}
            />
          </SimpleGrid>
          <Switch
            label="An agent per language"
            description="Visitors of a language talk to the agent named “default agent-language” (support-fr) when there is one."
            {...form.getInputProps('agent_per_language', { type: 'checkbox' })}
          />
          <Accordion variant="separated" chevronPosition="left">
            <Accordion.Item value="advanced">
              <Accordion.Control>Advanced</Accordion.Control>
              <Accordion.Panel>
                <Stack gap="sm">
                  <TextInput
                    label="Environment"
                    description="An environment id to talk to a published version; empty for the draft agent."
                    {...form.getInputProps('environment')}
                  />
                  <TextInput
                    label="Endpoint"
                    description="Leave empty for Google's own regional hosts. A changed endpoint needs the key uploaded again."
                    placeholder="https://europe-west1-dialogflow.googleapis.com"
                    {...form.getInputProps('endpoint')}
                    error={form.errors.endpoint ?? movedDialogflowKeyError(form.values, integration)}
                  />
                </Stack>
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
