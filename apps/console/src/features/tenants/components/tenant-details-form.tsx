import { Alert, Badge, Button, Card, Divider, Group, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { UpdateAccountBodySchema, type Account } from '@omnibot/contracts';
import { IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { AddressFields } from '../../../components/forms/address-fields';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { accountFormValuesOf, type AccountFormValues } from '../../../lib/account-form';
import { errorMessage, hasErrorCode } from '../../../lib/error-message';
import { formatDateTime } from '../../../lib/dates';
import { useUpdateTenant } from '../api/update-tenant';
import { tenantTypeLabel } from '../utils/tenant-labels';
import { TenantStatusBadge } from './tenant-status-badge';
import { AccountInfoFields } from './account-info-fields';

const resolve = schemaResolver(UpdateAccountBodySchema, { sync: true });

type DetailsValues = AccountFormValues;
const valuesOf = accountFormValuesOf;

interface TenantDetailsFormProps {
  tenant: Account;
  canEdit: boolean;
}

/** An organisation's name, address and info: shown, and edited by administrators (PUT, the full object). */
export function TenantDetailsForm({ tenant, canEdit }: TenantDetailsFormProps) {
  const update = useUpdateTenant(tenant.tenant_id);
  const form = useForm<DetailsValues>({
    initialValues: valuesOf(tenant),
    validate: (values) => resolve(values),
    validateInputOnBlur: true,
  });

  // mutateAsync, not mutate's callbacks: those are dropped if the page re-renders this form meanwhile.
  const onSubmit = async (values: DetailsValues) => {
    try {
      const saved = await update.mutateAsync(UpdateAccountBodySchema.parse(values));
      form.setInitialValues(valuesOf(saved));
      form.setValues(valuesOf(saved));
      notifySuccess(`The details of ${saved.name} were saved.`, 'Changes saved');
    } catch (error) {
      if (hasErrorCode(error, 'domain_taken')) form.setFieldError('info.domain', errorMessage(error));
      notifyError(error, 'The changes were not saved');
    }
  };

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Card withBorder padding="lg" radius="md">
        <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="lg">
            <Group gap="xs" wrap="wrap">
              <Badge variant="light">{tenantTypeLabel(tenant.type)}</Badge>
              <TenantStatusBadge isActive={tenant.is_active} />
              <Text size="sm" c="dimmed">
                ID{' '}
                <Text span ff="monospace">
                  {tenant.tenant_id}
                </Text>{' '}
                · created {formatDateTime(tenant.created_at)}
              </Text>
            </Group>
            {!canEdit && (
              <Alert color="gray" variant="light" icon={<IconInfoCircle />}>
                Only administrators can change these details.
              </Alert>
            )}
            <TextInput label="Organisation name" required {...form.getInputProps('name')} />
            <Divider label="Address" labelPosition="left" />
            <AddressFields fieldProps={(name) => form.getInputProps(`address.${name}`)} />
            <Divider label="Contact and domain" labelPosition="left" />
            <AccountInfoFields
              fieldProps={(name) => form.getInputProps(`info.${name}`)}
              timezone={form.values.info.timezone}
              onTimezoneChange={(value) => form.setFieldValue('info.timezone', value)}
            />
            {canEdit && (
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={form.reset} disabled={!form.isDirty()}>
                  Undo changes
                </Button>
                <Button type="submit" loading={update.isPending} leftSection={<IconDeviceFloppy size={16} />}>
                  Save changes
                </Button>
              </Group>
            )}
          </Stack>
        </fieldset>
      </Card>
    </form>
  );
}
