import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { AUTH_ERROR_CODES, AUTH_MESSAGES } from '@omnibot/contracts';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { z } from 'zod';
import type { SessionUser } from '@omnibot/contracts';
import { useChangePassword } from '../api/change-password';
import { errorCode, errorMessage } from '../utils/error-message';
import { NewPasswordFormSchema } from '../utils/new-password-schema';
import { weakPasswordError } from '../../../components/password-strength/password-strength';
import { useAuth } from './auth-context';
import { AuthHeading } from './auth-frame';
import { NewPasswordField } from '../../../components/password-strength/new-password-field';

const PasswordChangeFormSchema = z
  .object({ currentPassword: z.string().min(1, 'Enter your current password') })
  .and(NewPasswordFormSchema);
type PasswordChangeForm = z.infer<typeof PasswordChangeFormSchema>;

const resolve = schemaResolver(PasswordChangeFormSchema, { sync: true });

const FIELD_OF: Record<string, keyof PasswordChangeForm> = {
  [AUTH_ERROR_CODES.wrongCurrentPassword]: 'currentPassword',
  [AUTH_ERROR_CODES.weakPassword]: 'newPassword',
};

/**
 * The blocking step for a user signed in with a one-time password (the master's first sign-in): nothing else
 * loads until a new password is set, then the start-up flow continues.
 */
export function PasswordChangeStep({ user }: { user: SessionUser }) {
  const auth = useAuth();
  const change = useChangePassword();
  const [isContinuing, setIsContinuing] = useState(false);
  const form = useForm<PasswordChangeForm>({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: (values) => {
      const errors = resolve(values);
      const weak = errors.newPassword ? null : weakPasswordError(values.newPassword, [user.email, user.name]);
      return weak ? { ...errors, newPassword: weak } : errors;
    },
    validateInputOnBlur: true,
  });
  const field = FIELD_OF[errorCode(change.error) ?? ''];

  const onSubmit = async ({ currentPassword, newPassword }: PasswordChangeForm) => {
    try {
      await change.mutateAsync({ currentPassword, newPassword });
    } catch (error) {
      const target = FIELD_OF[errorCode(error) ?? ''];
      if (target) form.setFieldError(target, errorMessage(error));
      // 404 "No user is signed in.": the session is gone; checking again shows the sign-in page.
      if (errorCode(error) === AUTH_ERROR_CODES.noCurrentUser) await auth.refresh();
      return;
    }
    notifications.show({ color: 'teal', message: 'Your password was changed.' });
    setIsContinuing(true);
    try {
      await auth.refresh();
    } finally {
      setIsContinuing(false);
    }
  };

  return (
    <Stack gap="lg">
      <AuthHeading title="Choose a new password">
        {AUTH_MESSAGES.passwordChangeRequired} You signed in as {user.email} with a one-time password.
      </AuthHeading>
      {change.isError && !field && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {errorMessage(change.error)}
        </Alert>
      )}
      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="md">
          <PasswordInput
            label="Current (one-time) password"
            autoComplete="current-password"
            required
            aria-invalid={form.errors.currentPassword ? true : undefined}
            {...form.getInputProps('currentPassword')}
          />
          <NewPasswordField
            inputProps={form.getInputProps('newPassword')}
            password={form.getValues().newPassword}
            userInputs={[user.email, user.name]}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            required
            aria-invalid={form.errors.confirmPassword ? true : undefined}
            {...form.getInputProps('confirmPassword')}
          />
          <Button
            type="submit"
            fullWidth
            leftSection={<IconLock size={16} stroke={1.6} />}
            loading={change.isPending || isContinuing}
          >
            Set new password
          </Button>
          <Button variant="subtle" color="gray" fullWidth onClick={() => void auth.signOut()}>
            Sign out
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
