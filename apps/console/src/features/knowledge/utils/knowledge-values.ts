import { type CreateKnowledgeBody, DEFAULT_CHUNKING, type KnowledgeBase } from '@omnibot/contracts';

export const KNOWLEDGE_LANGUAGES = [
  { value: 'english', label: 'English' },
  { value: 'german', label: 'German' },
  { value: 'french', label: 'French' },
  { value: 'spanish', label: 'Spanish' },
  { value: 'italian', label: 'Italian' },
  { value: 'portuguese', label: 'Portuguese' },
  { value: 'dutch', label: 'Dutch' },
  { value: 'other', label: 'Other' },
];

export interface KnowledgeFormValues {
  name: string;
  language: string;
  /** Words per chunk; '' while the field is empty. */
  target_words: number | string;
  /** Overlap in percent of a chunk (the API takes a fraction); '' while the field is empty. */
  overlap_percent: number | string;
}

export const DEFAULT_KNOWLEDGE_VALUES: KnowledgeFormValues = {
  name: '',
  language: 'english',
  target_words: DEFAULT_CHUNKING.target_words,
  overlap_percent: Math.round(DEFAULT_CHUNKING.overlap * 100),
};

/** The request body the form's values stand for (numbers left empty become NaN, which the schema refuses). */
export function knowledgeBodyOf(values: KnowledgeFormValues): CreateKnowledgeBody {
  return {
    name: values.name,
    language: values.language,
    chunking: {
      target_words: values.target_words === '' ? Number.NaN : Number(values.target_words),
      overlap: values.overlap_percent === '' ? Number.NaN : Number(values.overlap_percent) / 100,
    },
  };
}

/** The label of a stored language value; a language typed elsewhere is shown as it is. */
export const languageLabel = (language: string) =>
  KNOWLEDGE_LANGUAGES.find((option) => option.value === language.toLowerCase())?.label ?? language;

/** The language option a stored knowledge base shows: a code like "de" or "en-GB" maps to the language its stemming uses. */
export function languageOption(base: Pick<KnowledgeBase, 'language' | 'text_search_config'>): string {
  const values = KNOWLEDGE_LANGUAGES.map((option) => option.value);
  const stored = base.language.toLowerCase();
  if (values.includes(stored)) return stored;
  return values.includes(base.text_search_config) ? base.text_search_config : 'other';
}
