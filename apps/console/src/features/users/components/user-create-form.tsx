import { Alert, Button, Card, Grid, Group, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import type { Profile, Role } from '@omnibot/contracts';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { errorCode, errorMessage } from '../../../lib/error-message';
import { useCreateUser } from '../api/create-user';
import { CREATE_FIELD_OF, UserCreateFormSchema, type UserCreateValues } from '../utils/user-create';
import { RoleSelect } from './role-select';

const resolve = schemaResolver(UserCreateFormSchema, { sync: true });

interface UserCreateFormProps {
  tenantId: string;
  tenantName: string;
  /** The roles the caller may give in this organisation (assignableRoles). */
  roles: readonly Role[];
  onCreated: (user: Profile) => void;
}

/** Invites a person to `tenantId`: the server creates the user and mails a link to choose a password. */
export function UserCreateForm({ tenantId, tenantName, roles, onCreated }: UserCreateFormProps) {
  const create = useCreateUser();
  const form = useForm<UserCreateValues>({
    initialValues: { email: '', firstname: '', lastname: '', role: roles.includes('user') ? 'user' : '' },
    validate: (values) => {
      const errors = resolve(values);
      if (errors.email && values.email.trim() === '') errors.email = 'Enter an e-mail address';
      if (!errors.role && values.role && !roles.includes(values.role))
        errors.role = 'You cannot give this role';
      return errors;
    },
    validateInputOnBlur: true,
  });
  const fieldError = CREATE_FIELD_OF[errorCode(create.error) ?? ''];

  const onSubmit = (values: UserCreateValues) => {
    const { email, firstname, lastname, role } = UserCreateFormSchema.parse(values);
    create.mutate(
      { tenantId, body: { email: email.trim(), role: role, info: { firstname, lastname } } },
      {
        onSuccess: (user) => {
          notifySuccess(
            `An invitation mail was sent to ${user.email}. Its link lets them choose a password (valid for 72 hours).`,
            'User added',
          );
          onCreated(user);
        },
        onError: (error) => {
          const field = CREATE_FIELD_OF[errorCode(error) ?? ''];
          if (field) form.setFieldError(field, errorMessage(error));
          notifyError(error, 'The user was not added');
        },
      },
    );
  };

  return (
    <Card withBorder padding="lg" radius="md" maw={720}>
      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            The new user joins <b>{tenantName}</b> and gets an e-mail with a link to choose a password.
          </Text>
          {create.isError && !fieldError && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {errorMessage(create.error)}
            </Alert>
          )}
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="off"
            required
            description="Its domain must be allowed for this organisation."
            {...form.getInputProps('email')}
          />
          <Grid gap="sm">
            <Grid.Col span={{ base: 12, xs: 6 }}>
              <TextInput label="First name" required {...form.getInputProps('firstname')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, xs: 6 }}>
              <TextInput label="Last name" required {...form.getInputProps('lastname')} />
            </Grid.Col>
          </Grid>
          <RoleSelect
            roles={roles}
            required
            value={form.getValues().role}
            onChange={(role) => form.setFieldValue('role', role)}
            error={form.errors.role}
            description="You can give your own role or a lower one."
            maw={{ base: '100%', xs: 'calc(50% - var(--mantine-spacing-sm) / 2)' }}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending} leftSection={<IconMailForward size={16} />}>
              Add user and send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
