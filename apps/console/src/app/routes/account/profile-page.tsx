import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../features/users/api/get-current-user';
import { PasswordChangeForm } from '../../../features/users/components/password-change-form';
import { ProfileForm } from '../../../features/users/components/profile-form';
import { useSession } from '../../../lib/session';

/** /profile: the signed-in user's own details and password. */
export function Component() {
  const session = useSession();
  const navigate = useNavigate();
  const me = useCurrentUser();

  const signInAgain = async () => {
    await session?.signOut();
    await navigate(paths.login);
  };

  let content;
  if (me.isPending) content = <FormSkeleton label="Loading your profile" fields={8} />;
  else if (me.isError)
    content = (
      <LoadError
        title="Your profile could not be loaded"
        error={me.error}
        onRetry={() => void me.refetch()}
      />
    );
  else {
    const { email, username, info } = me.data;
    content = (
      <Stack gap="lg">
        <ProfileForm profile={me.data} onSaved={() => void session?.refresh?.()} />
        <PasswordChangeForm
          userInputs={[email, username ?? '', info.firstname ?? '', info.lastname ?? '']}
          onSignedOut={() => void signInAgain()}
        />
      </Stack>
    );
  }

  return (
    <RequireMenuRoute route="/profile">
      <Stack gap={0} maw={960} w="100%">
        <PageHeader title="User Profile" description="Your name, phones and address, and your password." />
        {content}
      </Stack>
    </RequireMenuRoute>
  );
}
