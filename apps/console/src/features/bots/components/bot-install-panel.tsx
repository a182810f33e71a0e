import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { type Bot, OriginSchema, WIDGET_ALLOWED_ORIGINS_MAX } from '@omnibot/contracts';
import {
  IconAlertCircle,
  IconCheck,
  IconCopy,
  IconExternalLink,
  IconPlus,
  IconTrash,
  IconWorld,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { FormActions } from '../../../components/forms/form-actions';
import { LoadError } from '../../../components/forms/form-skeleton';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { formatDateTime } from '../../../lib/dates';
import { useCanConfigure } from '../../../lib/permissions';
import { useBotOrigins } from '../api/bots-api';
import { botPaths, installSnippet } from '../utils/bot-paths';
import { useConfigForm } from '../utils/use-config-form';

function Snippet({ bot }: { bot: Bot }) {
  const snippet = installSnippet(window.location.origin, bot.id);
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Snippet
        </Title>
        <Text size="sm" c="dimmed">
          Paste it before the closing &lt;/body&gt; tag of every page that should show the assistant.
        </Text>
        <Code block aria-label="Install snippet" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {snippet}
        </Code>
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Anchor href={botPaths.demo(bot.id)} target="_blank" rel="noopener" size="sm">
            <Group gap={4} wrap="nowrap">
              Try it on the demo page
              <IconExternalLink size={14} aria-hidden="true" />
            </Group>
          </Anchor>
          <CopyButton value={snippet} timeout={3000}>
            {({ copied, copy }) => (
              <Button
                onClick={copy}
                color={copied ? 'teal' : undefined}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              >
                {copied ? 'Copied' : 'Copy snippet'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Card>
  );
}

/** Why `value` cannot be added to `origins`, or null when it can. */
function originProblem(value: string, origins: readonly string[]): string | null {
  const parsed = OriginSchema.safeParse(value);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'This is not an origin.';
  if (origins.includes(value)) return 'This origin is already listed.';
  if (origins.length >= WIDGET_ALLOWED_ORIGINS_MAX)
    return `At most ${WIDGET_ALLOWED_ORIGINS_MAX} allowed origins.`;
  return null;
}

function RecentOrigins({
  bot,
  onAllow,
  allowed,
}: {
  bot: Bot;
  allowed: readonly string[];
  /** Offers to allow a recent origin; undefined for a role that may not change the allowed origins. */
  onAllow: ((origin: string) => void) | undefined;
}) {
  const origins = useBotOrigins(bot.id);
  let body;
  if (origins.isPending) body = <Skeleton height={80} aria-label="Loading the recent origins" />;
  else if (origins.isError) {
    body = (
      <LoadError
        title="The recent origins could not be loaded"
        error={origins.error}
        onRetry={() => void origins.refetch()}
      />
    );
  } else if (origins.data.items.length === 0) {
    body = (
      <EmptyPanel
        order={3}
        size="sm"
        icon={<IconWorld size={22} />}
        title="Not loaded anywhere yet"
        description="No site has loaded this bot in the last 30 days. Paste the snippet into a page, or open the demo page, and the site shows up here."
      />
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={520}>
        <Table striped verticalSpacing="xs" aria-label="Recent origins">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Origin</Table.Th>
              <Table.Th>Last seen</Table.Th>
              <Table.Th>First seen</Table.Th>
              <Table.Th ta="right">Loads</Table.Th>
              <Table.Th>
                <VisuallyHidden>Allow</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {origins.data.items.map((item) => (
              <Table.Tr key={item.origin}>
                <Table.Td style={{ wordBreak: 'break-all' }}>{item.origin}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(item.last_seen)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(item.first_seen)}</Table.Td>
                <Table.Td ta="right">{item.hits}</Table.Td>
                <Table.Td>
                  {item.origin === window.location.origin ? (
                    <Text size="xs" c="dimmed">
                      Always allowed
                    </Text>
                  ) : allowed.includes(item.origin) ? (
                    <Text size="xs" c="teal">
                      Allowed
                    </Text>
                  ) : onAllow && originProblem(item.origin, allowed) === null ? (
                    <Button size="compact-xs" variant="light" onClick={() => onAllow(item.origin)}>
                      Allow
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Recently loaded from
        </Title>
        <Text size="sm" c="dimmed">
          The sites that loaded this bot in the last 30 days, most recent first.
        </Text>
        {body}
      </Stack>
    </Card>
  );
}

/**
 * /bot/install: the snippet to copy, the origins allowed to embed the bot, and where it was loaded recently. A role
 * that may not configure reads the allowed origins but cannot add, remove or save them.
 */
export function BotInstallPanel({ bot }: { bot: Bot }) {
  const canConfigure = useCanConfigure();
  const { form, save, isSaving } = useConfigForm(bot, {
    groups: ['install'],
    successMessage: 'The allowed origins were saved.',
    failureTitle: 'The allowed origins were not saved',
  });
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string | null>(null);
  const origins = form.getValues().install.allowedOrigins;
  const listError = form.errors['install.allowedOrigins'];

  const add = (value: string) => {
    const origin = value.trim();
    const problem = originProblem(origin, origins);
    setDraftError(problem);
    if (problem !== null) return false;
    form.insertListItem('install.allowedOrigins', origin);
    return true;
  };

  return (
    <Stack gap="lg">
      {!bot.enabled && (
        <Alert color="yellow" icon={<IconAlertCircle />} title="This bot is disabled">
          The snippet shows nothing until you switch the bot on under{' '}
          <Anchor component={Link} to={botPaths.manage} inherit>
            Manage
          </Anchor>
          .
        </Alert>
      )}
      <Snippet bot={bot} />
      <Card withBorder radius="md" padding="md">
        <form onSubmit={form.onSubmit((values) => void save(values))} noValidate>
          <Stack gap="sm">
            <Title order={2} size="h4">
              Allowed origins
            </Title>
            <Text size="sm" c="dimmed">
              The sites that may embed this bot, as scheme, host and optional port (for example
              https://www.example.com). This console&apos;s own address ({window.location.origin}) is always
              allowed; with no other origin the bot shows only here and on the demo page.
            </Text>
            {origins.length === 0 ? (
              <Text size="sm">No other site is allowed yet.</Text>
            ) : (
              <Stack gap={4} role="list" aria-label="Allowed origins">
                {origins.map((origin, index) => (
                  <Group key={origin} justify="space-between" gap="xs" wrap="nowrap" role="listitem">
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {origin}
                    </Text>
                    {canConfigure && (
                      <Tooltip label="Remove">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${origin}`}
                          onClick={() => form.removeListItem('install.allowedOrigins', index)}
                        >
                          <IconTrash size={16} aria-hidden="true" />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                ))}
              </Stack>
            )}
            {typeof listError === 'string' && (
              <Text size="sm" c="red" role="alert">
                {listError}
              </Text>
            )}
            {canConfigure ? (
              <>
                <Group gap="sm" align="flex-start" wrap="nowrap">
                  <TextInput
                    label="Origin to allow"
                    placeholder="https://www.example.com"
                    value={draft}
                    error={draftError}
                    onChange={(event) => {
                      setDraft(event.currentTarget.value);
                      setDraftError(null);
                    }}
                    onKeyDown={(event) => {
                      if (event.key !== 'Enter') return;
                      event.preventDefault();
                      if (add(draft)) setDraft('');
                    }}
                    style={{ flex: 1, minWidth: 0 }}
                  />
                  <Button
                    mt={25}
                    variant="light"
                    leftSection={<IconPlus size={16} aria-hidden="true" />}
                    onClick={() => {
                      if (add(draft)) setDraft('');
                    }}
                  >
                    Add
                  </Button>
                </Group>
                <FormActions submitLabel="Save origins" isSaving={isSaving} />
              </>
            ) : (
              <ReadOnlyNotice />
            )}
          </Stack>
        </form>
      </Card>
      <RecentOrigins
        bot={bot}
        allowed={origins}
        onAllow={canConfigure ? (origin) => void add(origin) : undefined}
      />
    </Stack>
  );
}
