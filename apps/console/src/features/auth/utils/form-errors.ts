import type { FormErrors } from '@mantine/form';

/** An empty address is missing rather than invalid: say so instead of the catalogue's "The email is not valid". */
export function withMissingEmail(errors: FormErrors, email: string): FormErrors {
  return errors.email && email.trim() === '' ? { ...errors, email: 'Enter your e-mail address' } : errors;
}
