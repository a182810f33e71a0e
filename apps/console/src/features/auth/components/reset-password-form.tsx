import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { AUTH_ERROR_CODES, AUTH_MESSAGES } from '@omnibot/contracts';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useResetPassword } from '../api/reset-password';
import { errorCode, errorMessage } from '../utils/error-message';
import { weakPasswordError } from '../../../components/password-strength/password-strength';
import { AuthHeading } from './auth-frame';
import { NewPasswordFormSchema, type NewPasswordForm } from '../utils/new-password-schema';
import { NewPasswordField } from '../../../components/password-strength/new-password-field';

const resolve = schemaResolver(NewPasswordFormSchema, { sync: true });

/** The link cannot be used: expired, used, or not a reset link at all. */
function InvalidLink({ message }: { message: string }) {
  return (
    <Stack gap="lg">
      <AuthHeading title="Choose a new password" />
      <Alert color="red" icon={<IconAlertCircle />} role="alert">
        {message}
      </Alert>
      <Button component={Link} to={paths.forgotPassword} fullWidth>
        Send me a new link
      </Button>
      <Text size="sm" ta="center">
        <Anchor component={Link} to={paths.login}>
          Back to sign in
        </Anchor>
      </Text>
    </Stack>
  );
}

interface ResetPasswordFormProps {
  /** `?token=` from the reset mail's link. */
  token: string | null;
  /** `?error=` when the server refused the link (INVALID_TOKEN: expired or already used). */
  linkError: string | null;
}

/** A new password from the reset mail's link; afterwards a way on to the sign-in page. */
export function ResetPasswordForm({ token, linkError }: ResetPasswordFormProps) {
  const reset = useResetPassword();
  const form = useForm<NewPasswordForm>({
    initialValues: { newPassword: '', confirmPassword: '' },
    validate: (values) => {
      const errors = resolve(values);
      // The server judges a reset password without the user's words (it does not know who asks yet).
      const weak = errors.newPassword ? null : weakPasswordError(values.newPassword, []);
      return weak ? { ...errors, newPassword: weak } : errors;
    },
    validateInputOnBlur: true,
  });

  if (linkError || errorCode(reset.error) === AUTH_ERROR_CODES.invalidResetToken) {
    return <InvalidLink message={AUTH_MESSAGES.invalidResetToken} />;
  }
  if (!token) {
    return (
      <InvalidLink message="This page needs the link from your password reset e-mail. Open the link again, or ask for a new one." />
    );
  }
  if (reset.isSuccess) {
    return (
      <Stack gap="lg">
        <AuthHeading title="Password changed" />
        <Alert color="teal" icon={<IconCircleCheck />} role="status">
          Your new password is set. Sign in with it; other devices that were signed in have been signed out.
        </Alert>
        <Button component={Link} to={paths.login} fullWidth>
          Continue
        </Button>
      </Stack>
    );
  }

  const onSubmit = ({ newPassword }: NewPasswordForm) =>
    reset.mutate(
      { token, newPassword },
      {
        onError: (error) => {
          if (errorCode(error) === AUTH_ERROR_CODES.weakPassword)
            form.setFieldError('newPassword', errorMessage(error));
        },
      },
    );

  return (
    <Stack gap="lg">
      <AuthHeading title="Choose a new password">Pick a password you do not use anywhere else.</AuthHeading>
      {reset.isError && errorCode(reset.error) !== AUTH_ERROR_CODES.weakPassword && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {errorMessage(reset.error)}
        </Alert>
      )}
      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="md">
          <NewPasswordField
            inputProps={form.getInputProps('newPassword')}
            password={form.getValues().newPassword}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            required
            aria-invalid={form.errors.confirmPassword ? true : undefined}
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" fullWidth loading={reset.isPending}>
            Set new password
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
