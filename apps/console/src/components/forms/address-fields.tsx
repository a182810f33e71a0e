import { Grid, TextInput, type TextInputProps } from '@mantine/core';
import type { Address } from '@omnibot/contracts';

type AddressField = keyof Address;

/** What a form's getInputProps hands a text input (value, onChange, error, onBlur...). */
export type FieldProps = Pick<TextInputProps, 'value' | 'onChange' | 'onBlur' | 'onFocus' | 'error'>;

interface AddressFieldsProps {
  /** Input props for one address part, e.g. `(name) => form.getInputProps(`address.${name}`)`. */
  fieldProps: (name: AddressField) => FieldProps;
  readOnly?: boolean;
}

const FIELDS: ReadonlyArray<{ name: AddressField; label: string; autoComplete: string; wide?: boolean }> = [
  { name: 'street', label: 'Street', autoComplete: 'street-address', wide: true },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
  { name: 'state', label: 'State or region', autoComplete: 'address-level1' },
  { name: 'zipcode', label: 'Postal code', autoComplete: 'postal-code' },
  { name: 'country', label: 'Country', autoComplete: 'country-name' },
];

/** The five parts of an address: street on its own line, the rest two a row from 576 px. */
export function AddressFields({ fieldProps, readOnly = false }: AddressFieldsProps) {
  return (
    <Grid gap="sm">
      {FIELDS.map(({ name, label, autoComplete, wide }) => (
        <Grid.Col key={name} span={{ base: 12, xs: wide ? 12 : 6 }}>
          <TextInput label={label} autoComplete={autoComplete} readOnly={readOnly} {...fieldProps(name)} />
        </Grid.Col>
      ))}
    </Grid>
  );
}
