import { Alert, Badge, Button, Card, Divider, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { ROLE_RANK, type Profile, type Role, type UpdateUserBody } from '@omnibot/contracts';
import { IconAlertTriangle, IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { confirmAction } from '../../../components/ui/confirm';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { errorMessage, hasErrorCode } from '../../../lib/error-message';
import { useUpdateUser } from '../api/update-user';
import { lossOf, userEditValuesOf, UserEditFormSchema, type UserEditValues } from '../utils/user-edit';
import { displayNameOf, formatDateTime } from '../utils/format';
import { userDetailsBody } from '../utils/user-details';
import { RoleBadge } from './role-badge';
import { RoleSelect } from './role-select';
import { UserDetailsFields } from './user-details-fields';

const resolve = schemaResolver(UserEditFormSchema, { sync: true });

interface UserEditFormProps {
  user: Profile;
  /** The caller's role and the tenant's roles they may give (assignableRoles). */
  actorRole: Role;
  assignableRoles: readonly Role[];
  /** Administrators and masters change role and status; anybody may edit their own details. */
  canManage: boolean;
  isSelf: boolean;
}

/** A user's role, status, details and address (PUT .../User/{id}); the server's refusals are shown as they are. */
export function UserEditForm({ user, actorRole, assignableRoles, canManage, isSelf }: UserEditFormProps) {
  const update = useUpdateUser();
  const form = useForm<UserEditValues>({
    initialValues: userEditValuesOf(user),
    validate: (values) => resolve(values),
    validateInputOnBlur: true,
  });
  const isAbove = ROLE_RANK[user.role] > ROLE_RANK[actorRole];
  const canChangeAccess = canManage && !isAbove;
  const canEditDetails = canChangeAccess || isSelf;
  const roles = assignableRoles.includes(user.role) ? assignableRoles : [user.role, ...assignableRoles];
  const isLastAdministrator = hasErrorCode(update.error, 'last_administrator');

  const onSubmit = async (values: UserEditValues) => {
    const loss = canChangeAccess ? lossOf(user, values) : null;
    if (
      loss &&
      !(await confirmAction({
        title: values.is_active ? 'Lower this role?' : 'Disable this user?',
        message: loss,
        confirmLabel: values.is_active ? 'Change role' : 'Disable user',
        danger: true,
      }))
    ) {
      return;
    }
    const body: UpdateUserBody = {
      ...userDetailsBody(values),
      ...(canChangeAccess ? { role: values.role, is_active: values.is_active } : {}),
    };
    update.mutate(
      { tenantId: user.tenant_id, userId: user.id, body },
      {
        onSuccess: (saved) => {
          const next = userEditValuesOf(saved);
          form.setInitialValues(next);
          form.setValues(next);
          notifySuccess(`${displayNameOf(saved)} was saved.`);
        },
        onError: (error) =>
          notifyError(
            error,
            hasErrorCode(error, 'last_administrator')
              ? 'An administrator must remain'
              : 'The user was not saved',
          ),
      },
    );
  };

  return (
    <form onSubmit={form.onSubmit((values) => void onSubmit(values))} noValidate>
      <Stack gap="lg">
        <Card withBorder padding="lg" radius="md">
          <Stack gap="sm">
            <Group justify="space-between" align="flex-start" gap="sm">
              <Stack gap={2} miw={0}>
                <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
                  {displayNameOf(user)}
                </Title>
                <Text c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {user.email}
                </Text>
              </Stack>
              <Group gap="xs">
                <RoleBadge role={user.role} />
                <Badge variant="dot" color={user.is_active ? 'teal' : 'gray'}>
                  {user.is_active ? 'Active' : 'Disabled'}
                </Badge>
                <Badge variant="light" color={user.email_verified ? 'teal' : 'yellow'}>
                  {user.email_verified ? 'E-mail verified' : 'E-mail not verified'}
                </Badge>
              </Group>
            </Group>
            <Text size="xs" c="dimmed">
              Created {formatDateTime(user.created_at)} · Last changed {formatDateTime(user.updated_at)}
            </Text>
          </Stack>
        </Card>

        <Card withBorder padding="lg" radius="md" component="section" aria-label="Access">
          <Stack gap="md">
            <Text fw={600}>Access</Text>
            {!canChangeAccess && (
              <Alert color="gray" variant="light" icon={<IconInfoCircle />}>
                {isAbove
                  ? 'You cannot change a user whose role is above yours.'
                  : 'Only administrators can change roles or disable users.'}
              </Alert>
            )}
            <RoleSelect
              roles={roles}
              value={form.getValues().role}
              onChange={(role) => form.setFieldValue('role', role)}
              error={form.errors.role}
              readOnly={!canChangeAccess}
              maw={420}
            />
            <Switch
              label="Active"
              description="A disabled user cannot sign in; their sessions end at once."
              disabled={!canChangeAccess}
              {...form.getInputProps('is_active', { type: 'checkbox' })}
            />
          </Stack>
        </Card>

        <Card withBorder padding="lg" radius="md" component="section" aria-label="Details">
          <Stack gap="md">
            <Text fw={600}>Details</Text>
            <UserDetailsFields fieldProps={(path) => form.getInputProps(path)} readOnly={!canEditDetails} />
          </Stack>
        </Card>

        {/* Next to the button that was pressed, so the refusal is seen where the user is. */}
        {isLastAdministrator && (
          <Alert
            color="orange"
            icon={<IconAlertTriangle />}
            title="An administrator must remain"
            role="alert"
          >
            {errorMessage(update.error)}
          </Alert>
        )}
        {update.isError && !isLastAdministrator && (
          <Alert color="red" icon={<IconAlertTriangle />} role="alert">
            {errorMessage(update.error)}
          </Alert>
        )}

        {canEditDetails && (
          <>
            <Divider />
            <Group justify="flex-end">
              <Button type="submit" loading={update.isPending} leftSection={<IconDeviceFloppy size={16} />}>
                Save changes
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </form>
  );
}
