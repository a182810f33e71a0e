import { Avatar, Box, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconLogout } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import classes from './app-layout.module.css';

/** Account name, the user's name and LOGOUT. Renders nothing until someone is signed in. */
export function UserMenu() {
  const session = useSession();
  const navigate = useNavigate();
  if (!session) return null;

  const { firstname = '', lastname = '' } = session.profile;
  const fullName = `${firstname} ${lastname}`.trim();
  const initials = `${firstname.charAt(0)}${lastname.charAt(0)}`.toUpperCase();

  const logout = async () => {
    await session.signOut();
    await navigate(paths.login);
  };

  return (
    <Menu position="bottom-end" width={220} shadow="md">
      <Menu.Target>
        {/* Named by its content: a hidden "User menu:" before what it shows, so voice control matches the text. */}
        <UnstyledButton className={classes.userButton}>
          <VisuallyHidden>User menu: </VisuallyHidden>
          <Group gap="xs" wrap="nowrap">
            <Avatar size="sm" radius="xl" color="red">
              {initials || null}
            </Avatar>
            <Box visibleFrom="sm" maw={180}>
              <Text size="xs" c="dimmed" truncate>
                {session.tenantName}
              </Text>
              <Text size="sm" fw={500} truncate>
                {fullName}
              </Text>
            </Box>
            <IconChevronDown size={14} stroke={1.6} aria-hidden="true" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{session.tenantName}</Menu.Label>
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} stroke={1.6} />}
          onClick={() => void logout()}
        >
          LOGOUT
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
