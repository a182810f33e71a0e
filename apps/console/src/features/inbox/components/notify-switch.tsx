import { Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import {
  askNotificationAccess,
  notificationAccess,
  type NotificationAccess,
  unlockSound,
} from '../utils/new-conversation-alert';

const REFUSED: Partial<Record<NotificationAccess, string>> = {
  denied:
    'Your browser blocks notifications from this site, so you will only hear a beep. Allow notifications in the site settings to see them.',
  unsupported: 'This browser shows no notifications, so you will only hear a beep.',
};

interface NotifySwitchProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** "Notify me": a beep and a browser notification for each new waiting conversation; asks permission when turned on. */
export function NotifySwitch({ checked, onChange }: NotifySwitchProps) {
  const [access, setAccess] = useState<NotificationAccess>(notificationAccess);

  const toggle = async (on: boolean) => {
    onChange(on);
    if (!on) return;
    unlockSound();
    setAccess(await askNotificationAccess());
  };

  const refusal = checked ? REFUSED[access] : undefined;
  return (
    <Stack gap={4} maw="24rem">
      <Switch
        label="Notify me"
        description="A beep and a browser notification when a visitor starts waiting."
        checked={checked}
        onChange={(event) => void toggle(event.currentTarget.checked)}
      />
      {refusal && (
        <Text size="xs" c="orange" role="status">
          {refusal}
        </Text>
      )}
    </Stack>
  );
}
