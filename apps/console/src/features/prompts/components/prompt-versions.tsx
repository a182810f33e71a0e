import { Button, Card, Group, Select, Skeleton, Stack, Text } from '@mantine/core';
import type { PromptVersionSummary } from '@omnibot/contracts';
import { IconRestore } from '@tabler/icons-react';
import { useState } from 'react';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { formatDateTime } from '../../../lib/dates';
import { usePromptVersion, usePromptVersions, useRestorePromptVersion } from '../api/prompts-api';
import { VersionDiff } from './version-diff';

const label = (version: number, current: number) =>
  `Version ${version}${version === current ? ' (current)' : ''}`;

function Comparison({
  promptId,
  from,
  to,
  current,
}: {
  promptId: string;
  from: number;
  to: number;
  current: number;
}) {
  const before = usePromptVersion(promptId, from);
  const after = usePromptVersion(promptId, to);
  if (before.isError || after.isError) {
    return (
      <LoadError
        title="The versions could not be loaded"
        error={before.error ?? after.error}
        onRetry={() => void Promise.all([before.refetch(), after.refetch()])}
      />
    );
  }
  if (!before.data || !after.data) return <Skeleton height={160} aria-label="Loading the versions" />;
  return (
    <VersionDiff
      before={{ label: label(from, current), template: before.data.template }}
      after={{ label: label(to, current), template: after.data.template }}
    />
  );
}

/** A prompt's versions: compare any two side by side, and restore an earlier one as a new version. */
export function PromptVersions({ promptId }: { promptId: string }) {
  const versions = usePromptVersions(promptId);
  const restore = useRestorePromptVersion(promptId);
  const [picked, setPicked] = useState<{ from: number | null; to: number | null }>({ from: null, to: null });

  if (versions.isError) {
    return (
      <LoadError
        title="The versions could not be loaded"
        error={versions.error}
        onRetry={() => void versions.refetch()}
      />
    );
  }
  if (!versions.data) return <Skeleton height={200} aria-label="Loading the versions" />;

  const { items, current_version: current } = versions.data;
  const from = picked.from ?? (current > 1 ? current - 1 : null);
  const to = picked.to ?? current;
  const options = items.map((item) => ({ value: String(item.version), label: label(item.version, current) }));

  const onRestore = async (item: PromptVersionSummary) => {
    const confirmed = await confirmAction({
      title: `Restore version ${item.version}?`,
      message: `Its template becomes the current one, saved as version ${current + 1}. No version is lost.`,
      confirmLabel: 'Restore',
    });
    if (!confirmed) return;
    restore.mutate(item.version, {
      onSuccess: (prompt) => {
        setPicked({ from: null, to: null });
        notifySuccess(`Version ${item.version} restored as version ${prompt.current_version}.`);
      },
      onError: (error) => notifyError(error, 'The version was not restored'),
    });
  };

  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="md" component="section" aria-labelledby="prompt-versions-title">
        <Stack gap="sm">
          <Text fw={600} id="prompt-versions-title">
            Versions
          </Text>
          <Stack
            component="ol"
            gap={0}
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-labelledby="prompt-versions-title"
          >
            {items.map((item) => (
              <Group
                component="li"
                key={item.version}
                justify="space-between"
                wrap="nowrap"
                gap="sm"
                py="xs"
                style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
              >
                <Stack gap={0} miw={0}>
                  <Text size="sm" fw={500}>
                    {label(item.version, current)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Saved {formatDateTime(item.created_at)}
                  </Text>
                </Stack>
                {item.version !== current && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    leftSection={<IconRestore size={14} aria-hidden="true" />}
                    loading={restore.isPending && restore.variables === item.version}
                    onClick={() => void onRestore(item)}
                    aria-label={`Restore version ${item.version}`}
                    style={{ flex: 'none' }}
                  >
                    Restore
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
        </Stack>
      </Card>

      <Card withBorder radius="md" padding="md" component="section" aria-labelledby="prompt-compare-title">
        <Stack gap="sm">
          <Text fw={600} id="prompt-compare-title">
            Compare versions
          </Text>
          {items.length < 2 ? (
            <Text size="sm" c="dimmed">
              Save a change to the template to have a second version to compare with.
            </Text>
          ) : (
            <>
              <Group gap="sm" grow wrap="wrap">
                <Select
                  label="Compare"
                  data={options}
                  value={from === null ? null : String(from)}
                  onChange={(value) => value && setPicked({ from: Number(value), to })}
                  allowDeselect={false}
                  miw={150}
                />
                <Select
                  label="With"
                  data={options}
                  value={String(to)}
                  onChange={(value) => value && setPicked({ from, to: Number(value) })}
                  allowDeselect={false}
                  miw={150}
                />
              </Group>
              {from !== null && <Comparison promptId={promptId} from={from} to={to} current={current} />}
            </>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
