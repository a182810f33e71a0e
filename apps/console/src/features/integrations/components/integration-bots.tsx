import { Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { Integration } from '@omnibot/contracts';

/** The bots that answer with an integration, or hand over to it (it cannot be deleted while there are any). */
export function IntegrationBots({ integration }: { integration: Integration }) {
  const isContactCentre = integration.kind === 'ccaas';
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Bots using it
        </Title>
        {integration.bots.length === 0 ? (
          <Text size="sm" c="dimmed">
            {isContactCentre
              ? 'No bot hands over to this contact centre yet. Choose it in a bot’s engine settings, under “Offer a live agent”.'
              : 'No bot answers with this integration yet. Choose it in a bot’s engine settings.'}
          </Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {isContactCentre
                ? 'It cannot be deleted while bots hand over to it: point them at another contact centre first.'
                : 'It cannot be deleted while bots answer with it: point them at another engine first.'}
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
