import {
  CASE_SUMMARY_DEFAULTS,
  type CaseSummaryConfig,
  type CaseSummarySection,
  type CaseSummaryTrigger,
  type CreateCaseSummaryConfigBody,
  type ErrorCode,
} from '@omnibot/contracts';

export interface CaseSummaryFormValues {
  name: string;
  bot_ids: string[];
  /** null: no chat model, the summary is extractive. */
  model_id: string | null;
  sections: CaseSummarySection[];
  max_chars: number | string;
  triggers: CaseSummaryTrigger[];
}

export const DEFAULT_CASE_SUMMARY_VALUES: CaseSummaryFormValues = {
  name: '',
  bot_ids: [],
  model_id: null,
  sections: [...CASE_SUMMARY_DEFAULTS.sections],
  max_chars: CASE_SUMMARY_DEFAULTS.max_chars,
  triggers: [...CASE_SUMMARY_DEFAULTS.triggers],
};

export const caseSummaryValuesOf = (config: CaseSummaryConfig): CaseSummaryFormValues => ({
  name: config.name,
  bot_ids: config.bots.map((bot) => bot.id),
  model_id: config.model_id,
  sections: [...config.sections],
  max_chars: config.max_chars,
  triggers: [...config.triggers],
});

/** The request body of the form's values; an empty length field stays empty so the schema names it. */
export const caseSummaryBodyOf = (values: CaseSummaryFormValues): CreateCaseSummaryConfigBody => ({
  name: values.name.trim(),
  bot_ids: values.bot_ids,
  model_id: values.model_id,
  sections: values.sections,
  max_chars: values.max_chars === '' ? Number.NaN : Number(values.max_chars),
  triggers: values.triggers,
});

/** The field a refusal of the API is about. */
export const FIELD_OF_ERROR: Partial<Record<ErrorCode, keyof CaseSummaryFormValues>> = {
  'case-summary/name-taken': 'name',
  'case-summary/unknown-bot': 'bot_ids',
  'case-summary/bot-taken': 'bot_ids',
  'case-summary/unknown-model': 'model_id',
};
