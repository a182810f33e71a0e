import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { AUTH_ERROR_CODES, EmailSchema, SignInBodySchema, type SignInBody } from '@omnibot/contracts';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useSignIn } from '../api/sign-in';
import { withMissingEmail } from '../utils/form-errors';
import { errorCode, errorMessage } from '../utils/error-message';
import { useAuth } from './auth-context';
import { AuthHeading } from './auth-frame';
import { ResendVerificationButton } from './resend-verification-button';

const resolve = schemaResolver(SignInBodySchema, { sync: true });

interface SignInFormProps {
  /** `?verified=1`: the visitor comes from the verification link. */
  verified?: boolean;
  /** `?error=`: the verification link was refused (TOKEN_EXPIRED, INVALID_TOKEN, USER_NOT_FOUND, ...). */
  verificationError?: string | null;
}

/** E-mail and password sign-in (outcomes: success, not verified, any other failure). */
export function SignInForm({ verified = false, verificationError = null }: SignInFormProps) {
  const auth = useAuth();
  const signIn = useSignIn();
  const [isStarting, setIsStarting] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown; email: string } | null>(null);
  const form = useForm<SignInBody>({
    initialValues: { email: '', password: '' },
    validate: (values) => withMissingEmail(resolve(values), values.email),
    validateInputOnBlur: true,
  });

  const notice = auth.state.status === 'signed-out' ? auth.state.notice : undefined;
  const isNotVerified = errorCode(failure?.error) === AUTH_ERROR_CODES.emailNotVerified;

  const onSubmit = async (values: SignInBody) => {
    setFailure(null);
    auth.dismissNotice();
    try {
      await signIn.mutateAsync(values);
    } catch (error) {
      setFailure({ error, email: values.email });
      return;
    }
    // Signed in: the start-up flow runs; GuestOnly then moves on, or its failure shows as the notice.
    setIsStarting(true);
    try {
      await auth.refresh();
    } finally {
      setIsStarting(false);
    }
  };

  /** The e-mail typed in the form, checked; null (with the field's message) when it is not usable. */
  const typedEmail = () => {
    const parsed = EmailSchema.safeParse(form.getValues().email);
    if (parsed.success) return parsed.data;
    form.setFieldError('email', 'Enter your e-mail address to get a new verification link');
    return null;
  };

  return (
    <Stack gap="lg">
      <AuthHeading title="Sign in">Welcome back. Sign in with your e-mail address and password.</AuthHeading>

      {verified && !verificationError && (
        <Alert color="teal" icon={<IconCircleCheck />} title="Email verified, you can sign in now" />
      )}
      {verificationError && (
        <Alert color="red" icon={<IconAlertCircle />} title="This verification link did not work">
          <Stack gap="xs">
            <Text size="sm">
              {verificationError === 'TOKEN_EXPIRED'
                ? 'It has expired.'
                : 'It is not valid: it may be incomplete, or meant for another account.'}{' '}
              Enter your e-mail address below and we will send you a new one.
            </Text>
            <ResendVerificationButton getEmail={typedEmail} />
          </Stack>
        </Alert>
      )}
      {notice && (
        <Alert
          color="red"
          icon={<IconAlertCircle />}
          withCloseButton
          onClose={() => auth.dismissNotice()}
          role="alert"
        >
          {notice}
        </Alert>
      )}
      {failure && (
        <Alert color={isNotVerified ? 'yellow' : 'red'} icon={<IconAlertCircle />} role="alert">
          <Stack gap="xs">
            <Text size="sm">{errorMessage(failure.error)}</Text>
            {isNotVerified && <ResendVerificationButton getEmail={() => failure.email} />}
          </Stack>
        </Alert>
      )}

      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="md">
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="username"
            required
            {...form.getInputProps('email')}
          />
          <Stack gap={6}>
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              aria-invalid={form.errors.password ? true : undefined}
              {...form.getInputProps('password')}
            />
            <Group justify="flex-end">
              <Anchor component={Link} to={paths.forgotPassword} size="sm">
                Forgot password?
              </Anchor>
            </Group>
          </Stack>
          <Button type="submit" fullWidth loading={signIn.isPending || isStarting}>
            Sign in
          </Button>
        </Stack>
      </form>

      <Text size="sm" ta="center">
        No account yet?{' '}
        <Anchor component={Link} to={paths.register} fw={500}>
          Register
        </Anchor>
      </Text>
    </Stack>
  );
}
