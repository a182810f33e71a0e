import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import type { Profile } from '@omnibot/contracts';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useUpdateUser } from '../api/update-user';
import {
  userDetailsBody,
  UserDetailsFormSchema,
  userDetailsValuesOf,
  type UserDetailsValues,
} from '../utils/user-details';
import { RoleBadge } from './role-badge';
import { UserDetailsFields } from './user-details-fields';

const resolve = schemaResolver(UserDetailsFormSchema, { sync: true });

interface ProfileFormProps {
  profile: Profile;
  /** After a save, e.g. to show the new name in the header. */
  onSaved?: (profile: Profile) => void;
}

/** The signed-in user's own names, phones, address and display name (PUT .../User/{id}). */
export function ProfileForm({ profile, onSaved }: ProfileFormProps) {
  const update = useUpdateUser();
  const form = useForm<UserDetailsValues>({
    initialValues: userDetailsValuesOf(profile),
    validate: (values) => resolve(values),
    validateInputOnBlur: true,
  });

  const onSubmit = (values: UserDetailsValues) => {
    update.mutate(
      { tenantId: profile.tenant_id, userId: profile.id, body: userDetailsBody(values) },
      {
        onSuccess: (saved) => {
          const next = userDetailsValuesOf(saved);
          form.setInitialValues(next);
          form.setValues(next);
          notifySuccess('Your profile was saved.');
          onSaved?.(saved);
        },
        onError: (error) => notifyError(error, 'Your profile was not saved'),
      },
    );
  };

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="profile-details-title">
      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="lg">
          <Group justify="space-between" align="flex-start" gap="sm">
            <Stack gap={2} miw={0}>
              <Text fw={600} id="profile-details-title">
                Your details
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                Signed in as {profile.email}
              </Text>
            </Stack>
            <RoleBadge role={profile.role} />
          </Group>
          <UserDetailsFields fieldProps={(path) => form.getInputProps(path)} />
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending} leftSection={<IconDeviceFloppy size={16} />}>
              Save profile
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
