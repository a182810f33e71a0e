import { Card, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type CreateKnowledgeBody,
  CreateKnowledgeBodySchema,
  DEFAULT_CHUNKING,
  KNOWLEDGE_NAME_MAX,
} from '@omnibot/contracts';
import type { ReactNode } from 'react';
import { KNOWLEDGE_LANGUAGES, knowledgeBodyOf, type KnowledgeFormValues } from '../utils/knowledge-values';
import { ConfigFieldset } from '../../../components/access/config-fieldset';
import { FormActions } from '../../../components/forms/form-actions';
import { useCanConfigure } from '../../../lib/permissions';

const FIELD_OF: Record<string, keyof KnowledgeFormValues> = {
  name: 'name',
  language: 'language',
  'chunking.target_words': 'target_words',
  'chunking.overlap': 'overlap_percent',
};

/** The contracts schema's messages, placed on the field each one is about. */
function validate(values: KnowledgeFormValues): Partial<Record<keyof KnowledgeFormValues, string>> {
  const result = CreateKnowledgeBodySchema.safeParse(knowledgeBodyOf(values));
  if (result.success) return {};
  const errors: Partial<Record<keyof KnowledgeFormValues, string>> = {};
  for (const issue of result.error.issues) {
    const field = FIELD_OF[issue.path.join('.')];
    if (field && !errors[field]) {
      errors[field] = field === 'overlap_percent' ? 'The overlap must be between 0 and 49 %' : issue.message;
    }
  }
  return errors;
}

interface KnowledgeFormProps {
  initialValues: KnowledgeFormValues;
  submitLabel: string;
  isSaving: boolean;
  /** Receives a body the contracts schema accepted; resolves true when it was saved. */
  onSubmit: (body: CreateKnowledgeBody) => Promise<boolean>;
  actions?: ReactNode;
}

/**
 * Name, language and chunking of a knowledge base, checked with the API's own schema before it is sent. A role that
 * may not configure sees the values in disabled fields, without the actions or the submit button.
 */
export function KnowledgeForm({
  initialValues,
  submitLabel,
  isSaving,
  onSubmit,
  actions,
}: KnowledgeFormProps) {
  const form = useForm<KnowledgeFormValues>({ initialValues, validate, validateInputOnBlur: true });
  const canConfigure = useCanConfigure();

  const submit = async (values: KnowledgeFormValues) => {
    if (await onSubmit(knowledgeBodyOf(values))) form.setInitialValues(values);
  };

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
      <Card withBorder radius="md" padding="md" maw={720}>
        <Stack gap="md">
          <ConfigFieldset>
            <Stack gap="md">
              <TextInput
                label="Name"
                required
                maxLength={KNOWLEDGE_NAME_MAX}
                key={form.key('name')}
                {...form.getInputProps('name')}
              />
              <Select
                label="Language"
                description="Picks the stemming used for keyword search; Other searches words as written."
                data={KNOWLEDGE_LANGUAGES}
                allowDeselect={false}
                required
                key={form.key('language')}
                {...form.getInputProps('language')}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <NumberInput
                  label="Words per chunk"
                  description={`Default ${DEFAULT_CHUNKING.target_words}; 50 to 2000.`}
                  allowDecimal={false}
                  key={form.key('target_words')}
                  {...form.getInputProps('target_words')}
                />
                <NumberInput
                  label="Overlap (%)"
                  description={`Default ${Math.round(DEFAULT_CHUNKING.overlap * 100)} %; 0 to 49.`}
                  key={form.key('overlap_percent')}
                  {...form.getInputProps('overlap_percent')}
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
