import { Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconHeadset, IconList, IconMessageChatbot, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { useIntegrations } from '../api/integrations-api';
import { ENGINE_LABELS } from '../utils/integration-form';
import { integrationPaths } from '../utils/integration-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** How many integrations there are, per kind and engine, with the ways to see and add them. */
export function IntegrationOverview() {
  const integrations = useIntegrations();
  const canConfigure = useCanConfigure();
  if (integrations.isError && !integrations.data) {
    return (
      <LoadError
        title="The integrations could not be loaded"
        error={integrations.error}
        onRetry={() => void integrations.refetch()}
      />
    );
  }
  const items = integrations.data?.items;
  const count = (predicate: (engine: string) => boolean) =>
    items?.filter((integration) => predicate(integration.engine)).length ?? 0;
  const number = (value: number) =>
    items ? (
      <Text fz={32} fw={700} lh={1}>
        {value}
      </Text>
    ) : (
      <Skeleton h={32} w={48} />
    );
  const inUse = (kind: string) =>
    items?.filter((integration) => integration.kind === kind && integration.bots.length > 0).length ?? 0;
  const isChatbot = (engine: string) =>
    engine === 'builtin' || engine === 'openai' || engine === 'dialogflowcx';

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm" h="100%">
          <Group gap="xs">
            <IconMessageChatbot size={22} aria-hidden="true" />
            <Title order={2} size="h4">
              Chatbot engines
            </Title>
          </Group>
          {number(count(isChatbot))}
          <Text size="sm" c="dimmed">
            What your bots answer with: a RAG of your organisation, an OpenAI-compatible chat endpoint, or
            Dialogflow CX agents.
            {items && ` ${inUse('chatbot')} in use by bots.`}
          </Text>
          <Group gap="xs">
            <Badge variant="light" color="grape">
              {ENGINE_LABELS.builtin}: {count((engine) => engine === 'builtin')}
            </Badge>
            <Badge variant="light" color="blue">
              {ENGINE_LABELS.openai}: {count((engine) => engine === 'openai')}
            </Badge>
            <Badge variant="light" color="yellow">
              {ENGINE_LABELS.dialogflowcx}: {count((engine) => engine === 'dialogflowcx')}
            </Badge>
          </Group>
          <Group gap="sm" mt="auto">
            <Button component={Link} to={integrationPaths.chatbot} variant="light">
              Chatbot engines
            </Button>
            {canConfigure && (
              <Button component={Link} to={integrationPaths.add} leftSection={<IconPlus size={16} />}>
                Add
              </Button>
            )}
          </Group>
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm" h="100%">
          <Group gap="xs">
            <IconHeadset size={22} aria-hidden="true" />
            <Title order={2} size="h4">
              Contact centres
            </Title>
          </Group>
          {number(count((engine) => !isChatbot(engine)))}
          <Text size="sm" c="dimmed">
            Where your bots hand conversations over to a person: Genesys Cloud or Amazon Connect.
            {items && ` ${inUse('ccaas')} in use by bots.`}
          </Text>
          <Group gap="xs">
            <Badge variant="light" color="orange">
              {ENGINE_LABELS.genesys}: {count((engine) => engine === 'genesys')}
            </Badge>
            <Badge variant="light" color="teal">
              {ENGINE_LABELS.connect}: {count((engine) => engine === 'connect')}
            </Badge>
          </Group>
          <Group gap="sm" mt="auto">
            <Button component={Link} to={integrationPaths.ccaas} variant="light">
              Contact centres
            </Button>
            {canConfigure && (
              <Button
                component={Link}
                to={integrationPaths.addContactCentre()}
                leftSection={<IconPlus size={16} />}
                aria-label="Add a contact centre"
              >
                Add
              </Button>
            )}
          </Group>
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm" h="100%">
          <Group gap="xs">
            <IconList size={22} aria-hidden="true" />
            <Title order={2} size="h4">
              All integrations
            </Title>
          </Group>
          {number(items?.length ?? 0)}
          <Text size="sm" c="dimmed">
            Every integration of your organisation, with the bots that use each one. Open one to change it or
            test its connection.
          </Text>
          <Group gap="sm" mt="auto">
            <Button component={Link} to={integrationPaths.list} variant="light">
              See all
            </Button>
          </Group>
        </Stack>
      </Card>
    </SimpleGrid>
  );
}
