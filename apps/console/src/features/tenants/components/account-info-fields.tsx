import { Grid, Select, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import type { FieldProps } from '../../../components/forms/address-fields';

type AccountInfoField = 'website' | 'email' | 'timezone' | 'domain' | 'work' | 'fax';

function timeZones(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}

interface AccountInfoFieldsProps {
  /** Input props for one info field, e.g. `(name) => form.getInputProps(`info.${name}`)`. */
  fieldProps: (name: AccountInfoField) => FieldProps;
  timezone: string;
  onTimezoneChange: (timezone: string) => void;
}

/** An organisation's contact details and domain. */
export function AccountInfoFields({ fieldProps, timezone, onTimezoneChange }: AccountInfoFieldsProps) {
  const zones = useMemo(() => timeZones(timezone), [timezone]);
  return (
    <Grid gap="sm">
      <Grid.Col span={{ base: 12, xs: 6 }}>
        <TextInput label="E-mail" type="email" autoComplete="off" {...fieldProps('email')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, xs: 6 }}>
        <TextInput
          label="Website"
          type="url"
          placeholder="https://www.example.com"
          {...fieldProps('website')}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, xs: 6 }}>
        <TextInput label="Work phone" type="tel" {...fieldProps('work')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, xs: 6 }}>
        <TextInput label="Fax" type="tel" {...fieldProps('fax')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, xs: 6 }}>
        <Select
          label="Time zone"
          data={zones}
          searchable
          clearable
          nothingFoundMessage="No time zone matches"
          placeholder="Pick a time zone"
          error={fieldProps('timezone').error}
          value={timezone || null}
          onChange={(value) => onTimezoneChange(value ?? '')}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, xs: 6 }}>
        <TextInput
          label="Domain"
          description="People with e-mail addresses at this domain can be invited as users."
          placeholder="example.com"
          {...fieldProps('domain')}
        />
      </Grid.Col>
    </Grid>
  );
}
