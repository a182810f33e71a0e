import {
  Anchor,
  Card,
  MultiSelect,
  NumberInput,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type CreateIndexBody,
  CreateIndexBodySchema,
  INDEX_KNOWLEDGE_MAX,
  INDEX_MODES,
  INDEX_NAME_MAX,
  INDEX_TOP_K_MAX,
  isErrorCode,
} from '@omnibot/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfigFieldset } from '../../../components/access/config-fieldset';
import { notifyError } from '../../../components/ui/notify';
import { errorCode, errorMessage } from '../../../lib/error-message';
import {
  FIELD_OF_ERROR,
  indexBodyOf,
  type IndexFormValues,
  MODE_DESCRIPTION,
  MODE_LABEL,
  THRESHOLD_SCALE,
} from '../utils/index-values';
import { FormActions } from '../../../components/forms/form-actions';
import { useCanConfigure } from '../../../lib/permissions';

type FormErrors = Partial<Record<keyof IndexFormValues, string>>;

const FIELDS = new Set<string>([
  'name',
  'knowledge_ids',
  'mode',
  'embedding_model_id',
  'top_k',
  'score_threshold',
] satisfies (keyof IndexFormValues)[]);
const isField = (key: unknown): key is keyof IndexFormValues => typeof key === 'string' && FIELDS.has(key);

/** The contracts schema's messages, placed on the field each one is about (the first message per field). */
function validate(values: IndexFormValues): FormErrors {
  const result = CreateIndexBodySchema.safeParse(indexBodyOf(values));
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (isField(field) && !errors[field]) errors[field] = issue.message;
  }
  // An empty number field reaches the schema as NaN, whose own message names no field.
  if (values.top_k === '') errors.top_k = 'Enter the number of results';
  if (values.score_threshold === '') errors.score_threshold = 'Enter a score threshold (0 keeps every hit)';
  return errors;
}

export interface IndexFormOption {
  value: string;
  label: string;
}

interface IndexFormProps {
  initialValues: IndexFormValues;
  /** The organisation's knowledge bases; undefined while they load. */
  knowledgeOptions: IndexFormOption[] | undefined;
  /** The embedding models shared with the organisation; undefined while they load. */
  embeddingModels: IndexFormOption[] | undefined;
  submitLabel: string;
  isSaving: boolean;
  /** Toast title when the API refuses for a reason no field stands for. */
  failureTitle: string;
  /** Receives a body the contracts schema accepted; throws the API's refusal when it was not saved. */
  onSubmit: (body: CreateIndexBody) => Promise<void>;
  actions?: ReactNode;
}

/**
 * Name, knowledge bases, retrieval mode, embedding model, result count and score threshold of an index, checked
 * with the API's own schema before it is sent. Vector and hybrid can only be picked once an embedding model is. A
 * role that may not configure sees the values in disabled fields, without the actions or the submit button.
 */
export function IndexForm({
  initialValues,
  knowledgeOptions,
  embeddingModels,
  submitLabel,
  isSaving,
  failureTitle,
  onSubmit,
  actions,
}: IndexFormProps) {
  const form = useForm<IndexFormValues>({ initialValues, validate, validateInputOnBlur: true });
  const canConfigure = useCanConfigure();
  const { mode, embedding_model_id: modelId } = form.getValues();

  const submit = async (values: IndexFormValues) => {
    try {
      await onSubmit(indexBodyOf(values));
      form.setInitialValues(values);
      form.resetDirty(values);
    } catch (error) {
      const code = errorCode(error);
      const field = code && isErrorCode(code) ? FIELD_OF_ERROR[code] : undefined;
      if (field) form.setFieldError(field, errorMessage(error));
      else notifyError(error, failureTitle);
    }
  };

  const onModelChange = (value: string | null) => {
    form.setFieldValue('embedding_model_id', value ?? '');
    // Without a model only keyword retrieval can run.
    if (!value && form.getValues().mode !== 'keyword') form.setFieldValue('mode', 'keyword');
  };

  // A stored choice that is no longer offered still shows by its id rather than as an empty field.
  const knowledgeData = withChosen(knowledgeOptions, form.getValues().knowledge_ids);
  const modelData = withChosen(embeddingModels, modelId ? [modelId] : []);
  const hasNoKnowledge = knowledgeOptions !== undefined && knowledgeOptions.length === 0;
  const hasNoModels = embeddingModels !== undefined && embeddingModels.length === 0;

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
      <Card withBorder radius="md" padding="md" maw={720}>
        <Stack gap="md">
          <ConfigFieldset>
            <Stack gap="md">
              <TextInput
                label="Name"
                required
                maxLength={INDEX_NAME_MAX}
                key={form.key('name')}
                {...form.getInputProps('name')}
              />
              <MultiSelect
                label="Knowledge bases"
                description={
                  hasNoKnowledge ? (
                    <>
                      Your organisation has no knowledge base yet.{' '}
                      <Anchor component={Link} to="/knowledge/add" inherit>
                        Create a knowledge base
                      </Anchor>{' '}
                      first.
                    </>
                  ) : (
                    `The index searches the chunks of these, up to ${INDEX_KNOWLEDGE_MAX}.`
                  )
                }
                placeholder={knowledgeOptions === undefined ? 'Loading…' : 'Choose knowledge bases'}
                data={knowledgeData}
                searchable
                hidePickedOptions
                maxValues={INDEX_KNOWLEDGE_MAX}
                nothingFoundMessage="No knowledge base with that name"
                required
                key={form.key('knowledge_ids')}
                {...form.getInputProps('knowledge_ids')}
              />
              <Select
                label="Embedding model"
                description={
                  hasNoModels
                    ? 'No embedding model is shared with your organisation. A master administrator must share one on the Model page (/model) before vector or hybrid retrieval can be used.'
                    : 'Turns chunks and questions into vectors for vector and hybrid retrieval. Changing it re-embeds every chunk.'
                }
                placeholder={embeddingModels === undefined ? 'Loading…' : 'None (keyword only)'}
                data={modelData}
                clearable
                disabled={hasNoModels && !modelId}
                key={form.key('embedding_model_id')}
                {...form.getInputProps('embedding_model_id')}
                value={modelId === '' ? null : modelId}
                onChange={onModelChange}
              />
              <Radio.Group
                label="Retrieval mode"
                required
                key={form.key('mode')}
                {...form.getInputProps('mode')}
              >
                <Stack gap="xs" mt="xs">
                  {INDEX_MODES.map((option) => (
                    <Radio
                      key={option}
                      value={option}
                      label={MODE_LABEL[option]}
                      description={MODE_DESCRIPTION[option]}
                      disabled={option !== 'keyword' && !modelId}
                    />
                  ))}
                </Stack>
              </Radio.Group>
              {!modelId && (
                <Text size="sm" c="dimmed">
                  Choose an embedding model to enable vector and hybrid retrieval.
                </Text>
              )}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <NumberInput
                  label="Results (top k)"
                  description={`How many chunks a question retrieves; 1 to ${INDEX_TOP_K_MAX}.`}
                  allowDecimal={false}
                  min={1}
                  max={INDEX_TOP_K_MAX}
                  clampBehavior="none"
                  key={form.key('top_k')}
                  {...form.getInputProps('top_k')}
                />
                <NumberInput
                  label="Score threshold"
                  description={THRESHOLD_SCALE[mode]}
                  min={0}
                  clampBehavior="none"
                  step={0.05}
                  decimalScale={4}
                  key={form.key('score_threshold')}
                  {...form.getInputProps('score_threshold')}
                />
              </SimpleGrid>
            </Stack>
          </ConfigFieldset>
          {canConfigure && <FormActions actions={actions} submitLabel={submitLabel} isSaving={isSaving} />}
        </Stack>
      </Card>
    </form>
  );
}

function withChosen(options: IndexFormOption[] | undefined, chosen: readonly string[]): IndexFormOption[] {
  const list = options ?? [];
  const known = new Set(list.map((option) => option.value));
  return [...list, ...chosen.filter((id) => !known.has(id)).map((id) => ({ value: id, label: id }))];
}
