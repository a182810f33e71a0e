import { Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { KnowledgeSource } from '@omnibot/contracts';
import { useMemo } from 'react';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useSetSourceSync } from '../api/knowledge-api';
import { sourceName } from '../utils/source-values';
import {
  describeSchedule,
  type SyncFormValues,
  syncBodyOf,
  syncFormValuesOf,
  timeZoneOptions,
  validateSync,
  WEEKDAY_OPTIONS,
} from '../utils/sync-values';

interface SourceSyncFormProps {
  knowledgeId: string;
  source: KnowledgeSource;
  onDone: () => void;
}

function SourceSyncForm({ knowledgeId, source, onDone }: SourceSyncFormProps) {
  const save = useSetSourceSync(knowledgeId);
  const zones = useMemo(() => timeZoneOptions(), []);
  const form = useForm<SyncFormValues>({
    initialValues: syncFormValuesOf(source),
    validate: validateSync,
    validateInputOnBlur: true,
  });
  const submit = async (values: SyncFormValues) => {
    try {
      const saved = await save.mutateAsync({ sourceId: source.id, body: syncBodyOf(values) });
      notifySuccess(
        saved.sync.frequency === 'off'
          ? `"${sourceName(source)}" is no longer re-synced on a schedule.`
          : `"${sourceName(source)}" is re-synced: ${describeSchedule(saved.sync)}.`,
      );
      onDone();
    } catch (error) {
      notifyError(error, 'The schedule was not saved');
    }
  };
  const off = form.values.frequency === 'off';
  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          The page is asked for again at this local time; pages the site reports unchanged, or whose text is
          the same, are not indexed again.
        </Text>
        <SegmentedControl
          aria-label="How often"
          fullWidth
          data={[
            { value: 'off', label: 'Off' },
            { value: 'daily', label: 'Daily' },
            { value: 'weekly', label: 'Weekly' },
          ]}
          {...form.getInputProps('frequency')}
        />
        {form.values.frequency === 'weekly' && (
          <Select
            label="Weekday"
            data={WEEKDAY_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('weekday')}
          />
        )}
        {!off && (
          <>
            <TextInput
              label="Time"
              description="24-hour clock, HH:MM"
              placeholder="03:30"
              inputMode="numeric"
              maxLength={5}
              {...form.getInputProps('time')}
            />
            <Select
              label="Time zone"
              data={zones}
              searchable
              allowDeselect={false}
              nothingFoundMessage="No such time zone"
              limit={50}
              {...form.getInputProps('time_zone')}
            />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save schedule
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface SourceSyncDialogProps {
  knowledgeId: string;
  /** The source whose schedule is edited; null closes the dialog. */
  source: KnowledgeSource | null;
  onClose: () => void;
}

/** Sets when a web page or sitemap source is re-synced on its own: off, daily or weekly at a local time. */
export function SourceSyncDialog({ knowledgeId, source, onClose }: SourceSyncDialogProps) {
  return (
    <Modal opened={source !== null} onClose={onClose} title="Re-sync schedule" size="md" fullScreen={false}>
      {source && (
        <SourceSyncForm key={source.id} knowledgeId={knowledgeId} source={source} onDone={onClose} />
      )}
    </Modal>
  );
}
