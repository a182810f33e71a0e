import {
  Alert,
  Anchor,
  Card,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type CreateRagBody,
  CreateRagBodySchema,
  isErrorCode,
  RAG_DEFAULTS,
  RAG_FALLBACK_MAX,
  RAG_NAME_MAX,
  type Rag,
} from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { notifyError } from '../../../components/ui/notify';
import { errorCode } from '../../../lib/error-message';
import { useChatModelOptions, useIndexOptions, usePromptOptions } from '../api/rags-api';
import { ragPaths } from '../utils/rag-paths';
import { FIELD_OF_ERROR, languageOptions, ragBodyOf, type RagFormValues } from '../utils/rag-values';
import { FormActions } from '../../../components/forms/form-actions';

/** The options of a select, with the stored choice kept even when the list no longer offers it. */
function withCurrent(options: { value: string; label: string }[], id: string | null, name: string | null) {
  if (id === null || options.some((option) => option.value === id)) return options;
  return [...options, { value: id, label: name ?? 'No longer available' }];
}

type FieldErrors = Partial<Record<keyof RagFormValues, string>>;

/** The contracts schema's messages, placed on the field each one is about. */
function validate(values: RagFormValues): FieldErrors {
  const result = CreateRagBodySchema.safeParse(ragBodyOf(values));
  const errors: FieldErrors = {};
  if (values.index_id === null) errors.index_id = 'Choose the index the RAG answers from';
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in values) {
      const key = field as keyof RagFormValues;
      errors[key] ??= issue.message;
    }
  }
  return errors;
}

interface RagFormProps {
  initialValues: RagFormValues;
  submitLabel: string;
  isSaving: boolean;
  /** Receives a body the contracts schema accepted; a refusal it throws is shown on its field or as a toast. */
  onSubmit: (body: CreateRagBody) => Promise<void>;
  /** The toast title when the save is refused. */
  failureTitle: string;
  actions?: ReactNode;
  /** The stored RAG being edited: its index, prompt and model stay selectable under their names. */
  current?: Pick<Rag, 'index_id' | 'index_name' | 'prompt_id' | 'prompt_name' | 'model_id' | 'model_name'>;
}

/** A RAG's index, prompt, chat model and answer settings, checked with the API's own schema before it is sent. */
export function RagForm({
  initialValues,
  submitLabel,
  isSaving,
  onSubmit,
  failureTitle,
  actions,
  current,
}: RagFormProps) {
  const form = useForm<RagFormValues>({ initialValues, validate, validateInputOnBlur: true });
  const indexes = useIndexOptions();
  const prompts = usePromptOptions();
  const models = useChatModelOptions();

  const submit = async (values: RagFormValues) => {
    try {
      await onSubmit(ragBodyOf(values));
      form.setInitialValues(values);
      form.resetDirty(values);
    } catch (error) {
      const code = errorCode(error);
      const field = code && isErrorCode(code) ? FIELD_OF_ERROR[code] : undefined;
      if (field && error instanceof Error) form.setFieldError(field, error.message);
      notifyError(error, failureTitle);
    }
  };

  const optionsError = indexes.error ?? prompts.error ?? models.error;
  const hasNoIndex = indexes.data?.items.length === 0;

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
      <Card withBorder radius="md" padding="md" maw={760}>
        <Stack gap="md">
          {optionsError && (
            <Alert color="red" icon={<IconAlertCircle />} title="The choices could not be loaded">
              Some indexes, prompts or models may be missing from the lists below. Reload the page to try
              again.
            </Alert>
          )}
          {hasNoIndex && (
            <Alert color="yellow" icon={<IconAlertCircle />} title="Create an index first">
              A RAG answers from an index of your knowledge bases, and there is none yet.{' '}
              <Anchor component={Link} to={ragPaths.indexes} inherit>
                Create an index
              </Anchor>
            </Alert>
          )}
          <TextInput
            label="Name"
            required
            maxLength={RAG_NAME_MAX}
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <Select
            label="Index"
            description="The knowledge the RAG searches for each question."
            placeholder={indexes.isPending ? 'Loading indexes…' : 'Choose an index'}
            data={withCurrent(
              (indexes.data?.items ?? []).map((index) => ({ value: index.id, label: index.name })),
              current?.index_id ?? null,
              current?.index_name ?? null,
            )}
            searchable
            required
            nothingFoundMessage="No index with that name"
            key={form.key('index_id')}
            {...form.getInputProps('index_id')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Prompt"
              description="Optional: without one the built-in default prompt is used."
              placeholder="Built-in default prompt"
              data={withCurrent(
                (prompts.data?.items ?? []).map((prompt) => ({ value: prompt.id, label: prompt.name })),
                current?.prompt_id ?? null,
                current?.prompt_name ?? null,
              )}
              searchable
              clearable
              key={form.key('prompt_id')}
              {...form.getInputProps('prompt_id')}
            />
            <Select
              label="Chat model"
              description="Optional: without one, answers are sentences taken from the sources (extractive)."
              placeholder="None: extractive answers"
              data={withCurrent(
                (models.data?.items ?? []).map((model) => ({
                  value: model.id,
                  label: `${model.name} (${model.model_name})`,
                })),
                current?.model_id ?? null,
                current?.model_name ?? null,
              )}
              searchable
              clearable
              key={form.key('model_id')}
              {...form.getInputProps('model_id')}
            />
          </SimpleGrid>
          <Switch
            label="Cite sources"
            description="Answers carry [n] markers that point to the passages they come from."
            key={form.key('citations')}
            {...form.getInputProps('citations', { type: 'checkbox' })}
          />
          <Textarea
            label="Fallback text"
            description="Said by the RAG API when nothing relevant enough is found; a bot on this RAG says its own fallback text."
            rows={3}
            resize="vertical"
            required
            maxLength={RAG_FALLBACK_MAX}
            key={form.key('fallback_text')}
            {...form.getInputProps('fallback_text')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label="Max context (characters)"
              description={`How much of the found passages the answer may use. Default ${RAG_DEFAULTS.max_context_chars}; 500 to 100000.`}
              allowDecimal={false}
              key={form.key('max_context_chars')}
              {...form.getInputProps('max_context_chars')}
            />
            <Select
              label="Answer language"
              description="Auto answers in the language the question is asked in."
              data={languageOptions(form.getValues().language)}
              allowDeselect={false}
              searchable
              key={form.key('language')}
              {...form.getInputProps('language')}
            />
          </SimpleGrid>
          <FormActions actions={actions} submitLabel={submitLabel} isSaving={isSaving} />
        </Stack>
      </Card>
    </form>
  );
}
