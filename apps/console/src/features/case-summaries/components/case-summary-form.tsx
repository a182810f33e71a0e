import {
  Alert,
  Anchor,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  CASE_SUMMARY_LENGTH_MAX,
  CASE_SUMMARY_LENGTH_MIN,
  CASE_SUMMARY_NAME_MAX,
  CASE_SUMMARY_SECTION_LABELS,
  CASE_SUMMARY_SECTIONS,
  CASE_SUMMARY_TRIGGER_LABELS,
  CASE_SUMMARY_TRIGGERS,
  type CaseSummaryConfig,
  type CreateCaseSummaryConfigBody,
  CreateCaseSummaryConfigBodySchema,
  isErrorCode,
} from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { FormActions } from '../../../components/forms/form-actions';
import { notifyError } from '../../../components/ui/notify';
import { errorCode } from '../../../lib/error-message';
import { useBotOptions, useSummaryModelOptions } from '../api/case-summaries-api';
import { caseSummaryPaths } from '../utils/case-summary-paths';
import { caseSummaryBodyOf, type CaseSummaryFormValues, FIELD_OF_ERROR } from '../utils/case-summary-values';

type FieldErrors = Partial<Record<keyof CaseSummaryFormValues, string>>;

/** The contracts schema's messages, placed on the field each one is about. */
function validate(values: CaseSummaryFormValues): FieldErrors {
  const result = CreateCaseSummaryConfigBodySchema.safeParse(caseSummaryBodyOf(values));
  const errors: FieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in values) {
      errors[field as keyof CaseSummaryFormValues] ??= issue.message;
    }
  }
  return errors;
}

const SECTION_HINTS = {
  issue: "The visitor's issue, from their first messages",
  answers: 'What the bot already answered',
  open: 'What is still open: unanswered questions and fallbacks',
  sentiment: "The visitor's sentiment: positive, neutral or negative",
} as const;

interface CaseSummaryFormProps {
  initialValues: CaseSummaryFormValues;
  submitLabel: string;
  isSaving: boolean;
  /** Receives a body the contracts schema accepted; a refusal it throws is shown on its field and as a toast. */
  onSubmit: (body: CreateCaseSummaryConfigBody) => Promise<void>;
  failureTitle: string;
  actions?: ReactNode;
  /** The stored configuration: its bots and model stay selectable under their names. */
  current?: Pick<CaseSummaryConfig, 'bots' | 'model_id' | 'model_name'>;
}

/** Which bots, the chat model, the sections, the length limit and when: checked with the API's schema first. */
export function CaseSummaryForm({
  initialValues,
  submitLabel,
  isSaving,
  onSubmit,
  failureTitle,
  actions,
  current,
}: CaseSummaryFormProps) {
  const form = useForm<CaseSummaryFormValues>({ initialValues, validate, validateInputOnBlur: true });
  const bots = useBotOptions();
  const models = useSummaryModelOptions();

  const submit = async (values: CaseSummaryFormValues) => {
    try {
      await onSubmit(caseSummaryBodyOf(values));
      form.setInitialValues(values);
      form.resetDirty(values);
    } catch (error) {
      const code = errorCode(error);
      const field = code && isErrorCode(code) ? FIELD_OF_ERROR[code] : undefined;
      if (field && error instanceof Error) form.setFieldError(field, error.message);
      notifyError(error, failureTitle);
    }
  };

  const botOptions = (bots.data?.items ?? []).map((bot) => ({ value: bot.id, label: bot.name }));
  for (const bot of current?.bots ?? []) {
    if (!botOptions.some((option) => option.value === bot.id))
      botOptions.push({ value: bot.id, label: bot.name });
  }
  const modelOptions = (models.data?.items ?? []).map((model) => ({
    value: model.id,
    label: `${model.name} (${model.model_name})`,
  }));
  if (current?.model_id && !modelOptions.some((option) => option.value === current.model_id)) {
    modelOptions.push({ value: current.model_id, label: current.model_name ?? 'No longer available' });
  }

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
      <Card withBorder radius="md" padding="md" maw={760}>
        <Stack gap="md">
          {(bots.error ?? models.error) && (
            <Alert color="red" icon={<IconAlertCircle />} title="The choices could not be loaded">
              Some bots or models may be missing from the lists below. Reload the page to try again.
            </Alert>
          )}
          {bots.data?.items.length === 0 && (
            <Alert color="yellow" icon={<IconAlertCircle />} title="Create a bot first">
              A configuration summarises the conversations of your bots, and there is none yet.{' '}
              <Anchor component={Link} to={caseSummaryPaths.bots} inherit>
                Create a bot
              </Anchor>
            </Alert>
          )}
          <TextInput
            label="Name"
            required
            maxLength={CASE_SUMMARY_NAME_MAX}
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <MultiSelect
            label="Bots"
            description="The bots whose conversations are summarised; a bot belongs to one configuration."
            placeholder={bots.isPending ? 'Loading bots…' : 'Choose bots'}
            data={botOptions}
            searchable
            required
            nothingFoundMessage="No bot with that name"
            key={form.key('bot_ids')}
            {...form.getInputProps('bot_ids')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Chat model"
              description="Optional: without one, the summary is taken from the transcript (extractive)."
              placeholder="None: extractive summary"
              data={modelOptions}
              searchable
              clearable
              key={form.key('model_id')}
              {...form.getInputProps('model_id')}
            />
            <NumberInput
              label="Length limit (characters)"
              description={`The whole summary, cut at a whole sentence or word. ${CASE_SUMMARY_LENGTH_MIN} to ${CASE_SUMMARY_LENGTH_MAX}.`}
              allowDecimal={false}
              key={form.key('max_chars')}
              {...form.getInputProps('max_chars')}
            />
          </SimpleGrid>
          <Checkbox.Group
            label="Sections"
            description="What the summary says, in this order."
            required
            key={form.key('sections')}
            {...form.getInputProps('sections')}
          >
            <Stack gap="xs" mt="xs">
              {CASE_SUMMARY_SECTIONS.map((section) => (
                <Checkbox
                  key={section}
                  value={section}
                  label={CASE_SUMMARY_SECTION_LABELS[section]}
                  description={SECTION_HINTS[section]}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          <Checkbox.Group
            label="When"
            description="At hand-over the agent reads it first; at close it stays with the transcript."
            required
            key={form.key('triggers')}
            {...form.getInputProps('triggers')}
          >
            <Group gap="lg" mt="xs">
              {CASE_SUMMARY_TRIGGERS.map((trigger) => (
                <Checkbox key={trigger} value={trigger} label={CASE_SUMMARY_TRIGGER_LABELS[trigger]} />
              ))}
            </Group>
          </Checkbox.Group>
          <FormActions actions={actions} submitLabel={submitLabel} isSaving={isSaving} />
        </Stack>
      </Card>
    </form>
  );
}
