import { Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { Integration } from '@omnibot/contracts';

/** The bots that answer with an integration (it cannot be deleted while there are any). */
export function IntegrationBots({ integration }: { integration: Integration }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Bots using it
        </Title>
        {integration.bots.length === 0 ? (
          <Text size="sm" c="dimmed">
            No bot answers with this integration yet. Choose it in a bot&apos;s engine settings.
          </Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              It cannot be deleted while bots answer with it: point them at another engine first.
            </Text>
            <List spacing={4} aria-label="Bots using this integration">
              {integration.bots.map((bot) => (
                <List.Item key={bot.id}>
                  <Group gap="xs">
                    <Text size="sm">{bot.name}</Text>
                    {!bot.enabled && (
                      <Badge size="xs" variant="light" color="gray">
                        Disabled
                      </Badge>
                    )}
                  </Group>
                </List.Item>
              ))}
            </List>
          </>
        )}
      </Stack>
    </Paper>
  );
}
