import { List, Progress, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { PASSWORD_MIN_LENGTH, PASSWORD_MIN_SCORE } from '@omnibot/contracts';
import { IconCheck, IconX } from '@tabler/icons-react';
import { usePasswordStrength } from './use-password-strength';

const LEVELS = [
  { label: 'Very weak', color: 'red' },
  { label: 'Weak', color: 'red' },
  { label: 'Fair', color: 'orange' },
  { label: 'Good', color: 'teal' },
  { label: 'Strong', color: 'green' },
] as const;

function Requirement({ met, children }: { met: boolean; children: string }) {
  return (
    <List.Item
      icon={
        <ThemeIcon color={met ? 'teal' : 'gray'} variant={met ? 'filled' : 'light'} size={16} radius="xl">
          {met ? <IconCheck size={11} stroke={3} /> : <IconX size={11} stroke={3} />}
        </ThemeIcon>
      }
    >
      <Text size="xs" c={met ? undefined : 'dimmed'}>
        {children}
        <VisuallyHidden>{met ? ' (met)' : ' (not met yet)'}</VisuallyHidden>
      </Text>
    </List.Item>
  );
}

interface PasswordStrengthMeterProps {
  password: string;
  /** The user's own words (e-mail, name): a password made of them is weak. */
  userInputs?: string[];
  id?: string;
}

/** The live strength of a new password against the server's rule (at least 10 characters and score 3 of 4). */
export function PasswordStrengthMeter({ password, userInputs = [], id }: PasswordStrengthMeterProps) {
  const strength = usePasswordStrength(password, userInputs);
  const longEnough = password.length >= PASSWORD_MIN_LENGTH;
  const level = strength.status === 'ready' && password ? LEVELS[strength.score] : undefined;
  const strongEnough = strength.status === 'ready' && !!password && strength.score >= PASSWORD_MIN_SCORE;

  let verdict = 'Checking strength…';
  if (strength.status === 'unavailable')
    verdict = 'The strength check could not be loaded; the server still checks it.';
  else if (strength.status === 'ready')
    verdict = level ? `Strength: ${level.label}` : 'Strength: not set yet';

  return (
    <Stack gap={6} id={id} data-testid="password-strength">
      <Progress
        value={strength.status === 'ready' && password ? (strength.score + 1) * 20 : 0}
        color={level?.color ?? 'gray'}
        size="sm"
        aria-hidden="true"
        transitionDuration={200}
      />
      <Text size="xs" fw={500} c={level?.color} aria-live="polite">
        {verdict}
      </Text>
      <List spacing={4} size="xs" center>
        <Requirement met={longEnough}>{`At least ${PASSWORD_MIN_LENGTH} characters`}</Requirement>
        <Requirement met={strongEnough}>Strength Good or better (hard to guess)</Requirement>
      </List>
      {strength.status === 'ready' && password && strength.score < PASSWORD_MIN_SCORE && (
        <Text size="xs" c="dimmed">
          {[strength.warning, ...strength.suggestions].filter(Boolean).join(' ') ||
            'Add more words or characters that are not easy to guess.'}
        </Text>
      )}
    </Stack>
  );
}
