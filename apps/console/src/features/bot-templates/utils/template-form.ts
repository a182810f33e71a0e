import { BotNameSchema, BotTemplateDescriptionSchema, BotTemplateNameSchema } from '@omnibot/contracts';
import type { FormErrors } from '@mantine/form';

const firstIssue = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? undefined : (result.error?.issues[0]?.message ?? 'Not valid');

export interface TemplateFormValues {
  name: string;
  description: string;
}

/** A template's name and description, checked with the contracts' schemas. */
export function validateTemplate(values: TemplateFormValues): FormErrors {
  const errors: FormErrors = {};
  const name = firstIssue(BotTemplateNameSchema.safeParse(values.name));
  if (name) errors.name = name;
  const description = firstIssue(BotTemplateDescriptionSchema.safeParse(values.description));
  if (description) errors.description = description;
  return errors;
}

/** The name of a bot made from a template. */
export function validateBotName(values: { name: string }): FormErrors {
  const name = firstIssue(BotNameSchema.safeParse(values.name));
  return name ? { name } : {};
}
