import { Divider, Grid, Stack, TextInput } from '@mantine/core';
import { AddressFields, type FieldProps } from '../../../components/forms/address-fields';
import type { UserInfoField } from '../utils/user-details';

interface UserDetailsFieldsProps {
  /** Input props for a path of UserDetailsValues, e.g. `(path) => form.getInputProps(path)`. */
  fieldProps: (path: string) => FieldProps;
  readOnly?: boolean;
}

const NAME_FIELDS: Array<{ name: UserInfoField; label: string; autoComplete: string }> = [
  { name: 'firstname', label: 'First name', autoComplete: 'given-name' },
  { name: 'middlename', label: 'Middle name', autoComplete: 'additional-name' },
  { name: 'lastname', label: 'Last name', autoComplete: 'family-name' },
];

const PHONE_FIELDS: Array<{ name: UserInfoField; label: string; autoComplete?: string }> = [
  { name: 'primary', label: 'Primary phone', autoComplete: 'tel' },
  { name: 'mobile', label: 'Mobile phone', autoComplete: 'mobile tel' },
  { name: 'home', label: 'Home phone', autoComplete: 'home tel' },
  { name: 'work', label: 'Work phone', autoComplete: 'work tel' },
  { name: 'extension', label: 'Extension', autoComplete: 'work tel-extension' },
  { name: 'fax', label: 'Fax', autoComplete: 'fax tel' },
];

/** A user's display name, names, phones and address. */
export function UserDetailsFields({ fieldProps, readOnly = false }: UserDetailsFieldsProps) {
  return (
    <Stack gap="md">
      <TextInput
        label="Display name"
        description="How the user is named where a short name fits. Leave empty to use the first and last name."
        autoComplete="nickname"
        readOnly={readOnly}
        maw={{ base: '100%', xs: 'calc(50% - var(--mantine-spacing-sm) / 2)' }}
        {...fieldProps('username')}
      />
      <Grid gap="sm">
        {NAME_FIELDS.map(({ name, label, autoComplete }) => (
          <Grid.Col key={name} span={{ base: 12, xs: 4 }}>
            <TextInput
              label={label}
              autoComplete={autoComplete}
              readOnly={readOnly}
              {...fieldProps(`info.${name}`)}
            />
          </Grid.Col>
        ))}
      </Grid>
      <Divider label="Phones" labelPosition="left" />
      <Grid gap="sm">
        {PHONE_FIELDS.map(({ name, label, autoComplete }) => (
          <Grid.Col key={name} span={{ base: 12, xs: 6, md: 4 }}>
            <TextInput
              label={label}
              type="tel"
              autoComplete={autoComplete}
              readOnly={readOnly}
              {...fieldProps(`info.${name}`)}
            />
          </Grid.Col>
        ))}
      </Grid>
      <Divider label="Address" labelPosition="left" />
      <AddressFields fieldProps={(name) => fieldProps(`address.${name}`)} readOnly={readOnly} />
    </Stack>
  );
}
