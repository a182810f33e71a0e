import { Anchor, Button, Card, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import type { Account, Subscription } from '@omnibot/contracts';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { paths } from '../../../config/paths';
import { useCreateSubscription } from '../api/create-subscription';
import { useAssignableCodes } from '../api/get-assignable-codes';
import { useSubscriptions } from '../api/get-subscriptions';
import {
  subscriptionBodyOf,
  SubscriptionFormSchema,
  type SubscriptionFormValues,
} from '../utils/subscription-form';
import { codeName, today } from '../utils/subscription-state';

const resolve = schemaResolver(SubscriptionFormSchema, { sync: true });

interface SubscriptionCreateFormProps {
  /** The organisations the caller may give subscriptions to. */
  organisations: readonly Account[];
  initialTenantId?: string;
  onCreated: (subscription: Subscription) => void;
}

/** A parent gives one of its organisations a subscription: which one, which code, from when, until when. */
export function SubscriptionCreateForm({
  organisations,
  initialTenantId = '',
  onCreated,
}: SubscriptionCreateFormProps) {
  const create = useCreateSubscription();
  const form = useForm<SubscriptionFormValues>({
    initialValues: {
      tenant_id: organisations.some((item) => item.tenant_id === initialTenantId) ? initialTenantId : '',
      code: '',
      starts_on: today(),
      last_day: '',
    },
    validate: (values) => resolve(values),
    validateInputOnBlur: true,
  });
  const tenantId = form.values.tenant_id;
  const existing = useSubscriptions(tenantId);
  const organisation = organisations.find((item) => item.tenant_id === tenantId);
  // Only codes the organisation's parent holds now can be given to it.
  const { codes = [], query: parentCodes } = useAssignableCodes(organisation);
  const existingFor = (code: string) => existing.data?.find((item) => item.info.code === code);
  const chosen = form.values.code ? existingFor(form.values.code) : undefined;

  const onSubmit = async (values: SubscriptionFormValues) => {
    let subscription: Subscription;
    try {
      subscription = await create.mutateAsync({
        tenantId: values.tenant_id,
        body: subscriptionBodyOf(values),
      });
    } catch (error) {
      notifyError(error, 'The subscription was not created');
      return;
    }
    notifySuccess(`${subscription.info.name} was assigned.`, 'Subscription created');
    onCreated(subscription);
  };

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Card withBorder padding="lg" radius="md">
        <Stack gap="md">
          <Select
            label="Organisation"
            placeholder="Pick an organisation"
            required
            searchable
            nothingFoundMessage="No organisation matches"
            data={organisations.map((organisation) => ({
              value: organisation.tenant_id,
              label: organisation.is_active ? organisation.name : `${organisation.name} (inactive)`,
            }))}
            {...form.getInputProps('tenant_id')}
            value={tenantId || null}
            onChange={(value: string | null) => {
              form.setFieldValue('tenant_id', value ?? '');
              form.setFieldValue('code', '');
            }}
            allowDeselect={false}
          />
          <Select
            label="Subscription"
            description="Only subscriptions its parent organisation holds can be passed on."
            placeholder={tenantId ? 'Pick a subscription' : 'Pick an organisation first'}
            nothingFoundMessage="Its parent organisation holds no subscription to pass on"
            required
            disabled={!tenantId || existing.isPending || parentCodes.isPending}
            data={codes.map((code) => ({
              value: code,
              label: existingFor(code) ? `${codeName(code)} (already there)` : codeName(code),
              disabled: Boolean(existingFor(code)),
            }))}
            {...form.getInputProps('code')}
            value={form.values.code || null}
            onChange={(value: string | null) => form.setFieldValue('code', value ?? '')}
          />
          {chosen && (
            <Text size="sm">
              This organisation already has {chosen.info.name}.{' '}
              <Anchor component={Link} to={paths.subscription.view(chosen.tenant_id, chosen.id)} inherit>
                Open it to change its dates or status
              </Anchor>
              .
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput type="date" label="First day" required {...form.getInputProps('starts_on')} />
            <TextInput
              type="date"
              label="Last day"
              description="Leave empty for no end."
              {...form.getInputProps('last_day')}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending} leftSection={<IconPlus size={16} />}>
              Create subscription
            </Button>
          </Group>
        </Stack>
      </Card>
    </form>
  );
}
