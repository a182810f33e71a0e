import { Alert, Button, Card, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { AUTH_ERROR_CODES } from '@omnibot/contracts';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { NewPasswordField } from '../../../components/password-strength/new-password-field';
import { weakPasswordError } from '../../../components/password-strength/password-strength';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { errorCode, errorMessage } from '../../../lib/error-message';
import { useChangeOwnPassword } from '../api/change-password';
import {
  PASSWORD_FIELD_OF,
  passwordChangeFailure,
  PasswordChangeFormSchema,
  type PasswordChangeForm,
} from '../utils/password-change';

const resolve = schemaResolver(PasswordChangeFormSchema, { sync: true });

interface PasswordChangeFormProps {
  /** The user's own words (e-mail, names): a password made of them is weak. */
  userInputs: string[];
  /** 404: nobody is signed in any more; offers to sign in again. */
  onSignedOut: () => void;
}

/** Changes the signed-in user's password (POST /v1/me/password); other sessions are signed out. */
export function PasswordChangeForm({ userInputs, onSignedOut }: PasswordChangeFormProps) {
  const change = useChangeOwnPassword();
  const form = useForm<PasswordChangeForm>({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: (values) => {
      const errors = resolve(values);
      const weak = errors.newPassword ? null : weakPasswordError(values.newPassword, userInputs);
      return weak ? { ...errors, newPassword: weak } : errors;
    },
    validateInputOnBlur: true,
  });
  const isSignedOut = errorCode(change.error) === AUTH_ERROR_CODES.noCurrentUser;

  const onSubmit = ({ currentPassword, newPassword }: PasswordChangeForm) => {
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: (result) => {
          form.reset();
          notifySuccess(result.message || 'Your password was changed.');
        },
        onError: (error) => {
          const field = PASSWORD_FIELD_OF[errorCode(error) ?? ''];
          if (field) form.setFieldError(field, errorMessage(error));
          const code = errorCode(error);
          const withCode = code && code !== AUTH_ERROR_CODES.noCurrentUser ? ` (${code})` : '';
          notifyError(error, `Your password was not changed${withCode}`);
        },
      },
    );
  };

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="password-change-title">
      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="md">
          <Stack gap={2}>
            <Text fw={600} id="password-change-title">
              Change password
            </Text>
            <Text size="sm" c="dimmed">
              Your other sessions are signed out; this one stays signed in.
            </Text>
          </Stack>
          {change.isError && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{passwordChangeFailure(change.error)}</Text>
                {isSignedOut && (
                  <Button size="xs" variant="light" color="red" onClick={onSignedOut}>
                    Sign in again
                  </Button>
                )}
              </Stack>
            </Alert>
          )}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            maw={420}
            aria-invalid={form.errors.currentPassword ? true : undefined}
            {...form.getInputProps('currentPassword')}
          />
          <NewPasswordField
            inputProps={form.getInputProps('newPassword')}
            password={form.getValues().newPassword}
            userInputs={userInputs}
            maw={420}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            required
            maw={420}
            aria-invalid={form.errors.confirmPassword ? true : undefined}
            {...form.getInputProps('confirmPassword')}
          />
          <Group>
            <Button type="submit" loading={change.isPending} leftSection={<IconLock size={16} />}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
