import { type CreateRagBody, type ErrorCode, RAG_DEFAULTS, type Rag } from '@omnibot/contracts';

/** The answer languages offered besides `auto` (answer in the language of the question). */
const ANSWER_LANGUAGES = [
  'English',
  'German',
  'French',
  'Spanish',
  'Italian',
  'Portuguese',
  'Dutch',
  'Polish',
  'Swedish',
  'Danish',
  'Norwegian',
  'Finnish',
  'Czech',
  'Turkish',
  'Japanese',
  'Chinese',
];

/** The options of the answer language select; a stored language that is not among them is offered too. */
export function languageOptions(current: string) {
  const options = [
    { value: 'auto', label: 'Auto: the language of the question' },
    ...ANSWER_LANGUAGES.map((language) => ({ value: language, label: language })),
  ];
  return options.some((option) => option.value === current)
    ? options
    : [...options, { value: current, label: current }];
}

export interface RagFormValues {
  name: string;
  /** null until an index is chosen. */
  index_id: string | null;
  /** null: the built-in default prompt. */
  prompt_id: string | null;
  /** null: no chat model, answers are extractive. */
  model_id: string | null;
  citations: boolean;
  fallback_text: string;
  /** '' while the field is empty. */
  max_context_chars: number | string;
  language: string;
}

export const DEFAULT_RAG_VALUES: RagFormValues = {
  name: '',
  index_id: null,
  prompt_id: null,
  model_id: null,
  citations: RAG_DEFAULTS.citations,
  fallback_text: RAG_DEFAULTS.fallback_text,
  max_context_chars: RAG_DEFAULTS.max_context_chars,
  language: RAG_DEFAULTS.language,
};

/** The form's values of a stored RAG. */
export const ragValuesOf = (rag: Rag): RagFormValues => ({
  name: rag.name,
  index_id: rag.index_id,
  prompt_id: rag.prompt_id,
  model_id: rag.model_id,
  citations: rag.citations,
  fallback_text: rag.fallback_text,
  max_context_chars: rag.max_context_chars,
  language: rag.language,
});

/** The request body the form's values stand for (an empty number becomes NaN, which the schema refuses). */
export function ragBodyOf(values: RagFormValues): CreateRagBody {
  return {
    name: values.name,
    index_id: values.index_id ?? '',
    prompt_id: values.prompt_id,
    model_id: values.model_id,
    citations: values.citations,
    fallback_text: values.fallback_text,
    max_context_chars: values.max_context_chars === '' ? Number.NaN : Number(values.max_context_chars),
    language: values.language,
  };
}

/** The field a refusal of the RAG routes is about, so its message is shown there. */
export const FIELD_OF_ERROR: Partial<Record<ErrorCode, keyof RagFormValues>> = {
  'rag/name-taken': 'name',
  'rag/unknown-index': 'index_id',
  'rag/unknown-prompt': 'prompt_id',
  'rag/unknown-model': 'model_id',
};

/** How an answer was made, as the test box names it. */
export const KIND_LABELS = {
  qa: 'Q&A',
  model: 'Model',
  extractive: 'Extractive',
  fallback: 'Fallback text',
} as const;

/** What a RAG's model column says: the chat model, or that its answers are extractive. */
export const modelLabel = (rag: Pick<Rag, 'model_name'>) => rag.model_name ?? 'Extractive (no model)';
/** What a RAG's prompt column says: its prompt, or the built-in one. */
export const promptLabel = (rag: Pick<Rag, 'prompt_name'>) => rag.prompt_name ?? 'Built-in prompt';
