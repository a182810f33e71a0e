import {
  Accordion,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { CONNECT_CONTENT_TYPES, type ContactCentreProvider, type Integration } from '@omnibot/contracts';
import { useState, type ReactNode } from 'react';
import { StoredKeyField } from '../../../components/forms/stored-key-field';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useCreateIntegration, useTestIntegration, useUpdateIntegration } from '../api/integrations-api';
import {
  CONTENT_TYPE_LABELS,
  type ContactCentreFormValues,
  contactCentreFormOf,
  createContactCentreBodyOf,
  emptyContactCentreForm,
  movedSecretError,
  PROVIDER_LABELS,
  secretMaskOf,
  testContactCentreBodyOf,
  updateContactCentreBodyOf,
  validateContactCentreForm,
} from '../utils/contact-centre-form';
import { IntegrationFormFooter } from './integration-form-footer';
import type { IntegrationTestState } from './integration-test-result';

interface ContactCentreFormProps {
  /** The integration to change; a new one when left out. */
  integration?: Integration;
  /** The provider a new integration starts with. */
  initialEngine?: ContactCentreProvider;
  onSaved: (integration: Integration) => void;
  /** Buttons before the test button (delete...). */
  actions?: ReactNode;
}

function useContactCentreForm(
  values: ContactCentreFormValues,
  stored: Integration | undefined,
  onChange: () => void,
) {
  return useForm<ContactCentreFormValues>({
    initialValues: values,
    validate: (current) => validateContactCentreForm(current, stored),
    validateInputOnBlur: true,
    onValuesChange: (current, previous) => {
      if (current.engine !== previous.engine) onChange();
    },
  });
}
type ContactCentreFormApi = ReturnType<typeof useContactCentreForm>;

function GenesysFields({ form }: { form: ContactCentreFormApi }) {
  return (
    <>
      <TextInput
        label="Server URL"
        description="The web messaging socket of your Genesys Cloud region, e.g. wss://webmessaging.mypurecloud.com/v1"
        withAsterisk
        {...form.getInputProps('server_url')}
      />
      <TextInput
        label="Deployment id"
        description="The Messenger deployment id (Admin > Message > Messenger Deployments)."
        placeholder="00000000-0000-0000-0000-000000000000"
        withAsterisk
        {...form.getInputProps('deployment_id')}
      />
      <TextInput
        label="Origin"
        description="One of the deployment's allowed domains; the server presents it when it opens the socket."
        placeholder="https://www.example.com"
        withAsterisk
        {...form.getInputProps('origin')}
      />
    </>
  );
}

function ConnectFields({
  form,
  integration,
}: {
  form: ContactCentreFormApi;
  integration: Integration | undefined;
}) {
  const setAction = (next: ContactCentreFormValues['key_action']) => {
    form.setFieldValue('key_action', next);
    form.setFieldValue('secret_access_key', '');
    form.clearFieldError('secret_access_key');
  };
  const mask = secretMaskOf(integration);
  const types = form.values.content_types;
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Region" placeholder="us-west-2" withAsterisk {...form.getInputProps('region')} />
        <TextInput
          label="Display name"
          description="The name your agents see for the visitor."
          {...form.getInputProps('display_name')}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Instance id" withAsterisk {...form.getInputProps('instance_id')} />
        <TextInput label="Contact flow id" withAsterisk {...form.getInputProps('contact_flow_id')} />
      </SimpleGrid>
      <TextInput
        label="Access key id"
        description="Of an IAM user allowed connect:StartChatContact on this instance."
        withAsterisk
        {...form.getInputProps('access_key_id')}
      />
      <StoredKeyField
        label="Secret access key"
        description="Stored encrypted and never shown again; sent only to the region and endpoints it is entered for."
        stored={integration !== undefined}
        mask={mask}
        removable={mask !== 'No secret stored'}
        action={form.values.key_action}
        onAction={setAction}
        inputProps={form.getInputProps('secret_access_key')}
        keepError={movedSecretError(form.values, integration)}
      />
      <Checkbox.Group
        label="Content types"
        description="What the chat may carry (plain text always)."
        value={types}
        onChange={(next) =>
          form.setFieldValue(
            'content_types',
            CONNECT_CONTENT_TYPES.filter((type) => type === 'text/plain' || next.includes(type)),
          )
        }
      >
        <Group gap="md" mt={6}>
          {CONNECT_CONTENT_TYPES.map((type) => (
            <Checkbox
              key={type}
              value={type}
              label={CONTENT_TYPE_LABELS[type]}
              disabled={type === 'text/plain'}
            />
          ))}
        </Group>
      </Checkbox.Group>
      <Accordion variant="separated" chevronPosition="left">
        <Accordion.Item value="advanced">
          <Accordion.Control>Advanced</Accordion.Control>
          <Accordion.Panel>
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                Leave empty to use the region&apos;s own addresses. A changed address needs the secret entered
                again.
              </Text>
              <TextInput
                label="Connect endpoint"
                placeholder="https://connect.us-west-2.amazonaws.com"
                {...form.getInputProps('connect_endpoint')}
              />
              <TextInput
                label="Participant endpoint"
                placeholder="https://participant.connect.us-west-2.amazonaws.com"
                {...form.getInputProps('participant_endpoint')}
              />
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </>
  );
}

/** Add or change a contact-centre integration (Genesys Cloud, Amazon Connect), and test it before or after saving. */
export function ContactCentreForm({ integration, initialEngine, onSaved, actions }: ContactCentreFormProps) {
  const isNew = integration === undefined;
  const create = useCreateIntegration();
  const update = useUpdateIntegration(integration?.id ?? '');
  const tester = useTestIntegration();
  const [test, setTest] = useState<IntegrationTestState>({ status: 'idle' });
  const form = useContactCentreForm(
    integration ? contactCentreFormOf(integration) : emptyContactCentreForm(initialEngine),
    integration,
    () => setTest({ status: 'idle' }),
  );

  const onTest = async () => {
    if (form.validate().hasErrors) return;
    setTest({ status: 'running' });
    try {
      setTest({
        status: 'done',
        result: await tester.mutateAsync({ body: testContactCentreBodyOf(form.values, integration) }),
      });
    } catch (error) {
      setTest({ status: 'idle' });
      notifyError(error, 'The connection could not be tested');
    }
  };

  const onSubmit = async (submitted: ContactCentreFormValues) => {
    let saved: Integration;
    try {
      saved = isNew
        ? await create.mutateAsync(createContactCentreBodyOf(submitted))
        : await update.mutateAsync(updateContactCentreBodyOf(submitted, integration));
    } catch (error) {
      notifyError(error, isNew ? 'The integration was not added' : 'The integration was not saved');
      return;
    } finally {
      // The secret typed in lives nowhere once the request is over.
      form.setFieldValue('secret_access_key', '');
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
            <Stack gap={4}>
              <Text size="sm" fw={500} id="contact-centre-provider-label">
                Contact centre
              </Text>
              <SegmentedControl
                aria-labelledby="contact-centre-provider-label"
                data={(['genesys', 'connect'] as const).map((engine) => ({
                  value: engine,
                  label: PROVIDER_LABELS[engine],
                }))}
                {...form.getInputProps('engine')}
              />
            </Stack>
          ) : (
            <Text size="sm">
              Contact centre: <strong>{PROVIDER_LABELS[form.values.engine]}</strong>
            </Text>
          )}
          {form.values.engine === 'genesys' ? (
            <GenesysFields form={form} />
          ) : (
            <ConnectFields form={form} integration={integration} />
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
