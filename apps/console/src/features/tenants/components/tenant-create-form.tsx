import {
  Alert,
  Button,
  Card,
  Checkbox,
  Divider,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  childType,
  CreateAccountBodySchema,
  type Account,
  type AccountCreated,
  type Subscription,
} from '@omnibot/contracts';
import { IconAlertCircle, IconBuildingPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { AddressFields } from '../../../components/forms/address-fields';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { errorMessage, hasErrorCode } from '../../../lib/error-message';
import { useCreateTenant } from '../api/create-tenant';
import { codesToOffer, EMPTY_TENANT_FORM, type TenantFormValues } from '../utils/tenant-form';
import { tenantTypeLabel } from '../utils/tenant-labels';
import { AccountInfoFields } from './account-info-fields';

const resolve = schemaResolver(CreateAccountBodySchema, { sync: true });

interface TenantCreateFormProps {
  parent: Account;
  /** The parent's subscriptions: the new organisation may only get codes the parent holds now. */
  parentSubscriptions: readonly Subscription[];
  onCreated: (created: AccountCreated) => void;
}

/** Creates a child organisation (POST /v1/Account) with the subscriptions picked from the parent's codes. */
export function TenantCreateForm({ parent, parentSubscriptions, onCreated }: TenantCreateFormProps) {
  const create = useCreateTenant(parent.tenant_id);
  const offers = useMemo(() => codesToOffer(parent.type, parentSubscriptions), [parent, parentSubscriptions]);
  const form = useForm<TenantFormValues>({
    initialValues: EMPTY_TENANT_FORM,
    validate: (values) => resolve(values),
    validateInputOnBlur: true,
  });
  const kind = tenantTypeLabel(childType(parent.type)).toLowerCase();

  const onSubmit = async (values: TenantFormValues) => {
    let created: AccountCreated;
    try {
      created = await create.mutateAsync(CreateAccountBodySchema.parse(values));
    } catch (error) {
      if (hasErrorCode(error, 'domain_taken')) form.setFieldError('info.domain', errorMessage(error));
      notifyError(error, 'The organisation was not created');
      return;
    }
    notifySuccess(`${created.account.name} was created.`, 'Organisation created');
    onCreated(created);
  };

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Card withBorder padding="lg" radius="md">
        <Stack gap="lg">
          <Text size="sm" c="dimmed">
            The new {kind} organisation belongs to <strong>{parent.name}</strong>. It gets its own API
            credential and the subscriptions you pick here.
          </Text>

          <TextInput label="Organisation name" required data-autofocus {...form.getInputProps('name')} />

          <Checkbox.Group
            label="Subscriptions"
            description={`Pick at least one. Only codes ${parent.name} holds can be passed on.`}
            required
            {...form.getInputProps('subscriptions')}
          >
            {offers.length === 0 ? (
              <Alert color="yellow" icon={<IconAlertCircle />} mt="xs">
                {parent.name} holds no current subscription to pass on, so no organisation can be created
                under it yet. Ask its parent organisation to assign one.
              </Alert>
            ) : (
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" mt="xs">
                {offers.map((offer) => (
                  <Checkbox.Card
                    key={offer.code}
                    value={offer.code}
                    radius="md"
                    p="md"
                    aria-label={offer.name}
                  >
                    <Group wrap="nowrap" align="flex-start" gap="sm">
                      <Checkbox.Indicator />
                      <div>
                        <Text fw={500}>{offer.name}</Text>
                        <Text size="sm" c="dimmed">
                          {offer.description}
                        </Text>
                      </div>
                    </Group>
                  </Checkbox.Card>
                ))}
              </SimpleGrid>
            )}
          </Checkbox.Group>

          <Divider label="Address" labelPosition="left" />
          <AddressFields fieldProps={(name) => form.getInputProps(`address.${name}`)} />

          <Divider label="Contact and domain" labelPosition="left" />
          <AccountInfoFields
            fieldProps={(name) => form.getInputProps(`info.${name}`)}
            timezone={form.values.info.timezone}
            onTimezoneChange={(value) => form.setFieldValue('info.timezone', value)}
          />

          <Group justify="flex-end">
            <Button
              type="submit"
              loading={create.isPending}
              disabled={offers.length === 0}
              leftSection={<IconBuildingPlus size={16} />}
            >
              Create organisation
            </Button>
          </Group>
        </Stack>
      </Card>
    </form>
  );
}
