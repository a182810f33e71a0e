import {
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Radio,
  SegmentedControl,
  Slider,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm, type FormErrors } from '@mantine/form';
import { type Model, MODEL_KIND_LABELS, MODEL_KINDS, ModelKindSchema } from '@omnibot/contracts';
import { keptKeyEndpointError } from '../../../components/forms/stored-key-endpoint';
import { StoredKeyField } from '../../../components/forms/stored-key-field';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useSaveModel } from '../api/models-api';
import {
  apiKeyError,
  createBodyOf,
  emptyModelForm,
  keyMaskOf,
  ModelFormSchema,
  modelFormOf,
  updateBodyOf,
  type ModelFormValues,
} from '../utils/model-form';

const resolve = schemaResolver(ModelFormSchema, { sync: true });

export interface OrganisationOption {
  value: string;
  label: string;
}

interface ModelFormProps {
  /** The connection to change; a new one when left out. */
  model?: Model;
  /** The organisations the master reaches, to share the model with. */
  organisations: readonly OrganisationOption[];
  organisationsLoading?: boolean;
  onSaved: (model: Model) => void;
  onCancel: () => void;
}

function validate(values: ModelFormValues, stored: Model | undefined) {
  const errors: FormErrors = { ...resolve(values) };
  const keyError = apiKeyError(values, stored === undefined) ?? movedKeyError(values, stored);
  if (keyError) errors.api_key = keyError;
  return errors;
}

const movedKeyError = (values: ModelFormValues, stored: Model | undefined) =>
  keptKeyEndpointError({
    action: values.key_action,
    hasStoredKey: stored?.api_key.set ?? false,
    storedUrl: stored?.base_url ?? '',
    url: values.base_url.trim(),
  });

/** Add or change a model connection. The API key is write-only: after a save only its mask is ever shown. */
export function ModelForm({ model, organisations, organisationsLoading, onSaved, onCancel }: ModelFormProps) {
  const isNew = model === undefined;
  const save = useSaveModel();
  const form = useForm<ModelFormValues>({
    initialValues: model ? modelFormOf(model) : emptyModelForm(),
    validate: (values) => validate(values, model),
    validateInputOnBlur: true,
  });
  const { values } = form;

  const onSubmit = async (submitted: ModelFormValues) => {
    let saved: Model;
    try {
      saved = await save.mutateAsync(
        isNew ? { id: null, body: createBodyOf(submitted) } : { id: model.id, body: updateBodyOf(submitted) },
      );
    } catch (error) {
      notifyError(error, isNew ? 'The connection was not added' : 'The connection was not saved');
      return;
    } finally {
      // The key typed in lives nowhere once the request is over: not in the form, not in the mutation.
      form.setFieldValue('api_key', '');
      save.reset();
    }
    notifySuccess(
      `${saved.name} was ${isNew ? 'added' : 'saved'}.`,
      isNew ? 'Connection added' : 'Connection saved',
    );
    onSaved(saved);
  };

  const setKeyAction = (action: ModelFormValues['key_action']) => {
    form.setFieldValue('key_action', action);
    form.setFieldValue('api_key', '');
    form.clearFieldError('api_key');
  };

  const keySection = (
    <StoredKeyField
      stored={!isNew}
      mask={isNew ? '' : keyMaskOf(model)}
      removable={!isNew && model.api_key.set}
      action={values.key_action}
      onAction={setKeyAction}
      inputProps={form.getInputProps('api_key')}
      keepError={movedKeyError(values, model)}
    />
  );

  return (
    <form
      onSubmit={form.onSubmit(onSubmit)}
      noValidate
      aria-label={isNew ? 'New model connection' : `Edit ${model.name}`}
    >
      <Stack gap="md">
        <TextInput
          label="Name"
          description="How the console lists it, e.g. “GPT-4o mini”."
          required
          {...form.getInputProps('name')}
        />
        {isNew ? (
          <Stack gap={4}>
            <Text size="sm" fw={500} component="label" id="model-kind-label">
              Kind
            </Text>
            <SegmentedControl
              aria-labelledby="model-kind-label"
              data={MODEL_KINDS.map((kind) => ({ value: kind, label: MODEL_KIND_LABELS[kind] }))}
              value={values.kind}
              onChange={(value) => form.setFieldValue('kind', ModelKindSchema.catch('chat').parse(value))}
            />
          </Stack>
        ) : (
          <Text size="sm">
            Kind: <strong>{MODEL_KIND_LABELS[model.kind]}</strong>
          </Text>
        )}
        <TextInput
          label="Base URL"
          description="Where the OpenAI-compatible API lives, e.g. https://api.openai.com/v1"
          placeholder="https://api.openai.com/v1"
          required
          inputMode="url"
          {...form.getInputProps('base_url')}
        />
        <TextInput
          label="Model name"
          description="The provider's name of the model, e.g. gpt-4o-mini."
          required
          {...form.getInputProps('model_name')}
        />
        {keySection}
        {values.kind === 'chat' ? (
          <>
            <NumberInput
              label="Max tokens"
              description="The longest answer the model may write."
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              {...form.getInputProps('max_tokens')}
            />
            <Stack gap={4}>
              <NumberInput
                label="Temperature"
                description="0 answers the same way every time; higher values vary more (up to 2)."
                step={0.1}
                decimalScale={2}
                clampBehavior="none"
                {...form.getInputProps('temperature')}
              />
              <Slider
                aria-label="Temperature slider"
                min={0}
                max={2}
                step={0.1}
                label={(value) => value.toFixed(1)}
                value={
                  typeof values.temperature === 'number' ? Math.min(2, Math.max(0, values.temperature)) : 0
                }
                onChange={(value) => form.setFieldValue('temperature', Math.round(value * 10) / 10)}
              />
            </Stack>
          </>
        ) : values.kind === 'embedding' ? (
          <NumberInput
            label="Dimensions"
            description="The size of the vectors; leave empty for the model's own size."
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            {...form.getInputProps('dimensions')}
          />
        ) : null}
        <Radio.Group
          label="Offered to"
          value={values.share_all ? 'all' : 'some'}
          onChange={(value) => form.setFieldValue('share_all', value === 'all')}
        >
          <Stack gap="xs" mt={6}>
            <Radio value="all" label="Every organisation" />
            <Radio value="some" label="Your organisation and the ones you pick" />
          </Stack>
        </Radio.Group>
        {!values.share_all && (
          <MultiSelect
            label="Organisations"
            placeholder={organisationsLoading ? 'Loading organisations…' : 'Pick organisations'}
            nothingFoundMessage="No organisation matches"
            searchable
            clearable
            data={organisations.map((option) => ({ value: option.value, label: option.label }))}
            {...form.getInputProps('tenant_ids')}
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {isNew ? 'Add connection' : 'Save changes'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
