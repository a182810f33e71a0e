import { PasswordInput, Stack } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useId } from 'react';
import { PasswordStrengthMeter } from './password-strength-meter';

interface NewPasswordFieldProps {
  /** `form.getInputProps('newPassword')` of the form the field belongs to. */
  inputProps: GetInputPropsReturnType;
  password: string;
  /** The user's own e-mail and name, which a strong password must not lean on. */
  userInputs?: string[];
  maw?: number;
}

/** The "New password" input with its live strength meter, as every password form shows it. */
export function NewPasswordField({ inputProps, password, userInputs, maw }: NewPasswordFieldProps) {
  const meterId = useId();
  return (
    <Stack gap="xs" maw={maw}>
      <PasswordInput
        label="New password"
        autoComplete="new-password"
        required
        aria-describedby={meterId}
        aria-invalid={inputProps.error ? true : undefined}
        {...inputProps}
      />
      <PasswordStrengthMeter id={meterId} password={password} userInputs={userInputs} />
    </Stack>
  );
}
