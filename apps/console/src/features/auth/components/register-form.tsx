import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { AUTH_ERROR_CODES, RegisterBodySchema, type RegisterBody } from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { useId } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useSignUp } from '../api/sign-up';
import { errorCode, errorMessage } from '../utils/error-message';
import { withMissingEmail } from '../utils/form-errors';
import { weakPasswordError } from '../../../components/password-strength/password-strength';
import { AuthHeading } from './auth-frame';
import { PasswordStrengthMeter } from '../../../components/password-strength/password-strength-meter';

const resolve = schemaResolver(RegisterBodySchema, { sync: true });

/** Answers that belong to one field are shown on it; the rest above the form. */
const FIELD_OF: Record<string, keyof RegisterBody> = {
  [AUTH_ERROR_CODES.emailInUse]: 'email',
  [AUTH_ERROR_CODES.invalidEmail]: 'email',
  [AUTH_ERROR_CODES.domainNotAllowed]: 'email',
  [AUTH_ERROR_CODES.weakPassword]: 'password',
};

/** Registration: e-mail, password (with its live strength) and name; the server mails a verification link. */
export function RegisterForm() {
  const navigate = useNavigate();
  const signUp = useSignUp();
  const meterId = useId();
  const form = useForm<RegisterBody>({
    initialValues: { email: '', password: '', name: '' },
    validate: (values) => {
      const errors = withMissingEmail(resolve(values), values.email);
      const weak = errors.password ? null : weakPasswordError(values.password, [values.email, values.name]);
      return weak ? { ...errors, password: weak } : errors;
    },
    validateInputOnBlur: true,
  });
  const { email, password, name } = form.getValues();
  const field = FIELD_OF[errorCode(signUp.error) ?? ''];

  const onSubmit = (values: RegisterBody) => {
    signUp.mutate(values, {
      onSuccess: () => void navigate(paths.registerSuccess, { state: { email: values.email } }),
      onError: (error) => {
        const target = FIELD_OF[errorCode(error) ?? ''];
        if (target) form.setFieldError(target, errorMessage(error));
      },
    });
  };

  return (
    <Stack gap="lg">
      <AuthHeading title="Register">
        Create your account. We will send you a link to verify your e-mail address.
      </AuthHeading>

      {signUp.isError && !field && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {errorMessage(signUp.error)}
        </Alert>
      )}

      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="md">
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <Stack gap="xs">
            <PasswordInput
              label="Password"
              autoComplete="new-password"
              required
              aria-describedby={meterId}
              aria-invalid={form.errors.password ? true : undefined}
              {...form.getInputProps('password')}
            />
            <PasswordStrengthMeter id={meterId} password={password} userInputs={[email, name]} />
          </Stack>
          <TextInput label="Name" autoComplete="name" required {...form.getInputProps('name')} />
          <Button type="submit" fullWidth loading={signUp.isPending}>
            Register
          </Button>
        </Stack>
      </form>

      <Text size="sm" ta="center">
        Already registered?{' '}
        <Anchor component={Link} to={paths.login} fw={500}>
          Sign in
        </Anchor>
      </Text>
    </Stack>
  );
}
