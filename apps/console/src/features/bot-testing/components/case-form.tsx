import { Alert, Button, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type BotTestCase,
  type CreateBotTestCaseBody,
  CreateBotTestCaseBodySchema,
} from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/error-message';
import { type CaseValues, caseBodyOf } from '../utils/case-values';
import { useTestSources } from '../api/bot-testing-api';

type FieldErrors = Partial<Record<keyof CaseValues, string>>;

function validate(values: CaseValues): FieldErrors {
  const parsed = CreateBotTestCaseBodySchema.safeParse(caseBodyOf(values));
  if (parsed.success) return {};
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field === 'question' || field === 'expected_text' || field === 'expected_source_id') {
      errors[field] ??= issue.message;
    }
  }
  return errors;
}

interface CaseFormProps {
  botId: string;
  /** The case edited, or null for a new one. */
  current: BotTestCase | null;
  onSubmit: (body: CreateBotTestCaseBody) => Promise<void>;
  onCancel: () => void;
}

/** A test case: the question, and the text its answer must contain and/or the source it must cite. */
export function CaseForm({ botId, current, onSubmit, onCancel }: CaseFormProps) {
  const sources = useTestSources(botId);
  const [failure, setFailure] = useState<unknown>(null);
  const [isSaving, setIsSaving] = useState(false);
  const form = useForm<CaseValues>({
    initialValues: {
      question: current?.question ?? '',
      expected_text: current?.expected_text ?? '',
      expected_source_id: current?.expected_source_id ?? '',
    },
    validate,
  });
  const options = (sources.data?.items ?? []).map((source) => ({
    value: source.id,
    label: `${source.title} (${source.knowledge_name})`,
  }));
  // A case may expect a source that is no longer among the RAG's: it stays shown until changed.
  if (current?.expected_source_id && !options.some((option) => option.value === current.expected_source_id)) {
    options.push({
      value: current.expected_source_id,
      label: current.expected_source_title ?? 'A deleted source',
    });
  }

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    setIsSaving(true);
    try {
      await onSubmit(caseBodyOf(values));
    } catch (error) {
      setFailure(error);
    } finally {
      setIsSaving(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {failure !== null && (
          <Alert color="red" icon={<IconAlertCircle />} title="The case was not saved" role="alert">
            {errorMessage(failure)}
          </Alert>
        )}
        <Textarea label="Question" required rows={3} resize="vertical" {...form.getInputProps('question')} />
        <TextInput
          label="Expected text"
          description="The answer must contain it (case and spacing do not matter)."
          {...form.getInputProps('expected_text')}
        />
        <Select
          label="Expected source"
          description={
            sources.isError
              ? 'The sources could not be loaded.'
              : "The answer must cite this source of the bot's RAG."
          }
          placeholder={options.length === 0 ? 'The bot answers from no knowledge sources' : 'Choose a source'}
          data={options}
          searchable
          clearable
          disabled={options.length === 0}
          nothingFoundMessage="No source has that title"
          error={form.errors.expected_source_id}
          value={form.values.expected_source_id === '' ? null : form.values.expected_source_id}
          onChange={(value: string | null) => form.setFieldValue('expected_source_id', value ?? '')}
        />
        <Text size="xs" c="dimmed">
          Give an expected text, an expected source, or both.
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={isSaving}>
            {current ? 'Save case' : 'Add case'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
