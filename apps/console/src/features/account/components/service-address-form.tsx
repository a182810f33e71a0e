import {
  Alert,
  Badge,
  Button,
  Card,
  Divider,
  Grid,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import type { Account } from '@omnibot/contracts';
import { IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { AddressFields } from '../../../components/forms/address-fields';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useUpdateAccount } from '../api/update-account';
import { formValuesOf, ServiceAddressFormSchema, type ServiceAddressValues } from '../utils/service-address';

const resolve = schemaResolver(ServiceAddressFormSchema, { sync: true });

const TYPE_LABELS: Record<Account['type'], string> = {
  '1': 'Platform',
  '2': 'Partner',
  '3': 'Client organisation',
};

function timeZones(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}

interface ServiceAddressFormProps {
  account: Account;
  /** Administrators and masters edit; everybody else reads. */
  canEdit: boolean;
  /** After a save, e.g. to show a new organisation name in the header. */
  onSaved?: (account: Account) => void;
}

/** "Service Address": the organisation's name, address and contact details (PUT with the full account). */
export function ServiceAddressForm({ account, canEdit, onSaved }: ServiceAddressFormProps) {
  const update = useUpdateAccount();
  const initialValues = useMemo(() => formValuesOf(account), [account]);
  const form = useForm<ServiceAddressValues>({
    initialValues,
    validate: (values) => resolve(values),
    validateInputOnBlur: true,
  });
  const zones = useMemo(() => timeZones(initialValues.info.timezone), [initialValues]);
  const readOnly = !canEdit;

  const onSubmit = (values: ServiceAddressValues) => {
    update.mutate(
      { account, changes: ServiceAddressFormSchema.parse(values) },
      {
        onSuccess: (saved) => {
          form.setInitialValues(formValuesOf(saved));
          form.setValues(formValuesOf(saved));
          notifySuccess('The service address was saved.');
          onSaved?.(saved);
        },
        onError: (error) => notifyError(error, 'The service address was not saved'),
      },
    );
  };

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Card withBorder padding="lg" radius="md">
        <Stack gap="lg">
          <Group gap="xs" wrap="wrap">
            <Badge variant="light">{TYPE_LABELS[account.type]}</Badge>
            <Badge variant="dot" color={account.is_active ? 'teal' : 'gray'}>
              {account.is_active ? 'Active' : 'Inactive'}
            </Badge>
            <Text size="sm" c="dimmed">
              Organisation ID:{' '}
              <Text span ff="monospace">
                {account.tenant_id}
              </Text>
            </Text>
          </Group>

          {readOnly && (
            <Alert color="gray" variant="light" icon={<IconInfoCircle />}>
              Only administrators can change these details. Ask one of them if something is out of date.
            </Alert>
          )}

          <TextInput
            label="Organisation name"
            required={canEdit}
            readOnly={readOnly}
            {...form.getInputProps('name')}
          />

          <Divider label="Address" labelPosition="left" />
          <AddressFields fieldProps={(name) => form.getInputProps(`address.${name}`)} readOnly={readOnly} />

          <Divider label="Contact and domain" labelPosition="left" />
          <Grid gap="sm">
            <Grid.Col span={{ base: 12, xs: 6 }}>
              <TextInput
                label="E-mail"
                type="email"
                autoComplete="email"
                readOnly={readOnly}
                {...form.getInputProps('info.email')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, xs: 6 }}>
              <TextInput
                label="Website"
                type="url"
                autoComplete="url"
                placeholder={readOnly ? undefined : 'https://www.example.com'}
                readOnly={readOnly}
                {...form.getInputProps('info.website')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, xs: 6 }}>
              <TextInput
                label="Work phone"
                type="tel"
                autoComplete="tel"
                readOnly={readOnly}
                {...form.getInputProps('info.work')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, xs: 6 }}>
              <TextInput label="Fax" type="tel" readOnly={readOnly} {...form.getInputProps('info.fax')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, xs: 6 }}>
              <Select
                label="Time zone"
                data={zones}
                searchable
                clearable={canEdit}
                readOnly={readOnly}
                nothingFoundMessage="No time zone matches"
                placeholder={readOnly ? undefined : 'Pick a time zone'}
                {...form.getInputProps('info.timezone')}
                value={form.getValues().info.timezone || null}
                onChange={(value: string | null) => form.setFieldValue('info.timezone', value ?? '')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, xs: 6 }}>
              <TextInput
                label="Domain"
                description="People with e-mail addresses at this domain can be invited as users."
                placeholder={readOnly ? undefined : 'example.com'}
                readOnly={readOnly}
                {...form.getInputProps('info.domain')}
              />
            </Grid.Col>
          </Grid>

          {canEdit && (
            <Group justify="flex-end">
              <Button type="submit" loading={update.isPending} leftSection={<IconDeviceFloppy size={16} />}>
                Save changes
              </Button>
            </Group>
          )}
        </Stack>
      </Card>
    </form>
  );
}
