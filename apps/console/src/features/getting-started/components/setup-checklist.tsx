import { Badge, Button, Card, Group, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconExternalLink, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { SetupStep } from '../utils/setup-steps';

function StepAction({ step }: { step: SetupStep }) {
  if (!step.action) return null;
  const { label, href, external } = step.action;
  const variant = step.done ? 'default' : 'filled';
  if (external) {
    return (
      <Button
        component="a"
        href={href}
        target="_blank"
        rel="noopener"
        variant={variant}
        rightSection={<IconExternalLink size={16} aria-hidden="true" />}
      >
        {label}
      </Button>
    );
  }
  return (
    <Button component={Link} to={href} variant={variant}>
      {label}
    </Button>
  );
}

function StepCard({ step, number }: { step: SetupStep; number: number }) {
  const headingId = `setup-step-${step.id}`;
  return (
    <Card withBorder padding="md" radius="md" component="li" aria-labelledby={headingId}>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <ThemeIcon
          size={36}
          radius="xl"
          variant={step.done ? 'filled' : 'light'}
          color={step.done ? 'teal' : step.blocked ? 'gray' : undefined}
          aria-hidden="true"
        >
          {step.done ? <IconCheck size={20} /> : step.blocked ? <IconLock size={18} /> : number}
        </ThemeIcon>
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Title order={2} size="h4" id={headingId}>
              {step.title}
            </Title>
            <Badge variant="light" color={step.done ? 'teal' : 'gray'} size="md">
              {step.done ? 'Done' : step.blocked ? 'Not available' : 'To do'}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {step.description}
          </Text>
          {step.blocked && <Text size="sm">{step.blocked}</Text>}
          {step.action && (
            <Group mt={4}>
              <StepAction step={step} />
            </Group>
          )}
        </Stack>
      </Group>
    </Card>
  );
}

/** The getting-started steps, ticked from the organisation's data, each with a link to where it is done. */
export function SetupChecklist({ steps }: { steps: readonly SetupStep[] }) {
  const done = steps.filter((step) => step.done).length;
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          {done} of {steps.length} steps done
        </Text>
        <Progress.Root size="md">
          <Progress.Section
            value={(done / steps.length) * 100}
            color="teal"
            aria-label={`Getting started: ${done} of ${steps.length} steps done`}
          />
        </Progress.Root>
      </Stack>
      <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Steps">
        {steps.map((step, index) => (
          <StepCard key={step.id} step={step} number={index + 1} />
        ))}
      </Stack>
    </Stack>
  );
}
