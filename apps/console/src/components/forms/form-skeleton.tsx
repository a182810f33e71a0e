import { Alert, Button, Card, Grid, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../../lib/error-message';

/** The shape of a form card while its data loads. */
export function FormSkeleton({ fields = 6, label }: { fields?: number; label: string }) {
  return (
    <Card withBorder padding="lg" radius="md" aria-busy="true" aria-label={label}>
      <Stack gap="md">
        <Skeleton height={16} width="30%" />
        <Grid gap="sm">
          {Array.from({ length: fields }, (_, index) => (
            <Grid.Col key={index} span={{ base: 12, xs: 6 }}>
              <Skeleton height={12} width="40%" mb={8} />
              <Skeleton height={36} />
            </Grid.Col>
          ))}
        </Grid>
      </Stack>
    </Card>
  );
}

interface LoadErrorProps {
  title: string;
  /** The failure (its message is shown), or `message` for an answer that was not an error. */
  error?: unknown;
  message?: string;
  onRetry: () => void;
}

/** A failed load: what went wrong and a way to try again. */
export function LoadError({ title, error, message, onRetry }: LoadErrorProps) {
  return (
    <Alert color="red" icon={<IconAlertCircle />} title={title} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{message ?? errorMessage(error)}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}
