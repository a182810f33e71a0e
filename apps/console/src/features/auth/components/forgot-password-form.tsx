import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { AUTH_ERROR_CODES, AUTH_MESSAGES, EmailSchema } from '@omnibot/contracts';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { z } from 'zod';
import { paths } from '../../../config/paths';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { errorCode, errorMessage } from '../utils/error-message';
import { withMissingEmail } from '../utils/form-errors';
import { AuthHeading } from './auth-frame';

const ForgotPasswordFormSchema = z.object({ email: EmailSchema });
type ForgotPasswordForm = z.infer<typeof ForgotPasswordFormSchema>;
const resolve = schemaResolver(ForgotPasswordFormSchema, { sync: true });

/** Asks for a reset mail; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const request = useRequestPasswordReset();
  const form = useForm<ForgotPasswordForm>({
    initialValues: { email: '' },
    validate: (values) => withMissingEmail(resolve(values), values.email),
    validateInputOnBlur: true,
  });

  const onSubmit = ({ email }: ForgotPasswordForm) =>
    request.mutate(email, {
      onError: (error) => {
        if (errorCode(error) === AUTH_ERROR_CODES.invalidEmail)
          form.setFieldError('email', errorMessage(error));
      },
    });

  const backToSignIn = (
    <Text size="sm" ta="center">
      <Anchor component={Link} to={paths.login} fw={500}>
        Back to sign in
      </Anchor>
    </Text>
  );

  if (request.isSuccess) {
    return (
      <Stack gap="lg">
        <AuthHeading title="Check your inbox" />
        <Alert color="teal" icon={<IconCircleCheck />} title={AUTH_MESSAGES.resetSuccess} role="status">
          If an account exists for {request.variables}, it gets an e-mail with a link to choose a new
          password. The link works once and expires in 1 hour.
        </Alert>
        {backToSignIn}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <AuthHeading title="Forgot password?">
        Enter the e-mail address of your account and we will send you a link to choose a new password.
      </AuthHeading>
      {request.isError && errorCode(request.error) !== AUTH_ERROR_CODES.invalidEmail && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {errorMessage(request.error)}
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
          <Button type="submit" fullWidth loading={request.isPending}>
            Send reset link
          </Button>
        </Stack>
      </form>
      {backToSignIn}
    </Stack>
  );
}
