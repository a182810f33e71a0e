import { Card, Grid, Stack, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  CreatePromptBodySchema,
  PROMPT_DESCRIPTION_MAX,
  PROMPT_NAME_MAX,
  promptTemplateProblems,
} from '@omnibot/contracts';
import type { ReactNode } from 'react';
import { PromptPreview } from './prompt-preview';
import { TemplateEditor } from './template-editor';
import { FormActions } from '../../../components/forms/form-actions';

export interface PromptFormValues {
  name: string;
  description: string;
  template: string;
}

const resolve = schemaResolver(CreatePromptBodySchema, { sync: true });

interface PromptFormProps {
  initialValues: PromptFormValues;
  submitLabel: string;
  isSaving: boolean;
  /** Resolves true when the values were saved (they become the form's new starting point). */
  onSubmit: (values: PromptFormValues) => Promise<boolean>;
  /** Extra buttons beside the submit button. */
  actions?: ReactNode;
}

/** Name, description and template of a prompt, with the template checked as it is typed and a live preview. */
export function PromptForm({ initialValues, submitLabel, isSaving, onSubmit, actions }: PromptFormProps) {
  const form = useForm<PromptFormValues>({
    initialValues,
    validate: (values) => resolve(values),
    validateInputOnBlur: true,
  });
  const { template } = form.getValues();
  // Unknown and malformed variables are named while typing, before any submit.
  const liveProblems = promptTemplateProblems(template);
  const templateError = liveProblems.length > 0 ? liveProblems.join(' ') : form.errors.template;

  const submit = async (values: PromptFormValues) => {
    if (await onSubmit(values)) form.setInitialValues(values);
  };

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder radius="md" padding="md">
            <Stack gap="md">
              <TextInput
                label="Name"
                required
                maxLength={PROMPT_NAME_MAX}
                key={form.key('name')}
                {...form.getInputProps('name')}
              />
              <Textarea
                label="Description"
                description="Optional: what this prompt is for."
                rows={2}
                resize="vertical"
                maxLength={PROMPT_DESCRIPTION_MAX}
                key={form.key('description')}
                {...form.getInputProps('description')}
              />
              <TemplateEditor
                value={template}
                onChange={(value) => form.setFieldValue('template', value)}
                onBlur={() => form.validateField('template')}
                error={templateError}
              />
              <FormActions actions={actions} submitLabel={submitLabel} isSaving={isSaving} />
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <PromptPreview template={template} />
        </Grid.Col>
      </Grid>
    </form>
  );
}
