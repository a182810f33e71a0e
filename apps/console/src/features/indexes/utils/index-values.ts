import {
  type CreateIndexBody,
  type ErrorCode,
  type Index,
  INDEX_DEFAULTS,
  type IndexEmbedding,
  type IndexMode,
  type UpdateIndexBody,
} from '@omnibot/contracts';
import { hasErrorCode } from '../../../lib/error-message';

export interface IndexFormValues {
  name: string;
  knowledge_ids: string[];
  mode: IndexMode;
  /** '' while no embedding model is chosen. */
  embedding_model_id: string;
  /** '' while the field is empty. */
  top_k: number | string;
  /** '' while the field is empty. */
  score_threshold: number | string;
}

export const DEFAULT_INDEX_VALUES: IndexFormValues = {
  name: '',
  knowledge_ids: [],
  mode: INDEX_DEFAULTS.mode,
  embedding_model_id: '',
  top_k: INDEX_DEFAULTS.top_k,
  score_threshold: INDEX_DEFAULTS.score_threshold,
};

export const MODE_LABEL: Record<IndexMode, string> = {
  keyword: 'Keyword',
  vector: 'Vector',
  hybrid: 'Hybrid',
};

/** What each mode does, in one line. */
export const MODE_DESCRIPTION: Record<IndexMode, string> = {
  keyword: 'Finds chunks that share the words of the question (BM25); needs no embedding model.',
  vector: 'Finds chunks close in meaning to the question, even in other words; needs an embedding model.',
  hybrid: 'Runs both and merges the two rankings; usually the best results, needs an embedding model.',
};

/** The scale of the score threshold in each mode, as the API scores hits. */
export const THRESHOLD_SCALE: Record<IndexMode, string> = {
  keyword: 'Keyword scores are BM25: 0 and up, unbounded; 0 keeps every match.',
  vector:
    'Vector scores are cosine similarity from -1 to 1; e.g. 0.5 keeps fairly close chunks, 0 keeps all.',
  hybrid: 'Hybrid scores are the fused rank, scaled so first place in both lists is 1; 0 keeps all.',
};

const numberOf = (value: number | string) => (value === '' ? Number.NaN : Number(value));

/** The request body the form's values stand for (numbers left empty become NaN, which the schema refuses). */
export function indexBodyOf(values: IndexFormValues): CreateIndexBody {
  return {
    name: values.name,
    knowledge_ids: values.knowledge_ids,
    mode: values.mode,
    top_k: numberOf(values.top_k),
    score_threshold: numberOf(values.score_threshold),
    embedding_model_id: values.embedding_model_id === '' ? null : values.embedding_model_id,
  };
}

/** The form values of a stored index. */
export const indexValuesOf = (index: Index): IndexFormValues => ({
  name: index.name,
  knowledge_ids: index.knowledge_ids,
  mode: index.mode,
  embedding_model_id: index.embedding_model_id ?? '',
  top_k: index.top_k,
  score_threshold: index.score_threshold,
});

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, at) => id === b[at]);

/**
 * Only the fields that differ from the stored index, so saving a new name does not touch the embedding model
 * (changing that re-embeds every chunk).
 */
export function indexChangesOf(index: Index, body: CreateIndexBody): UpdateIndexBody {
  const changes: UpdateIndexBody = {};
  if (body.name !== index.name) changes.name = body.name;
  if (!sameIds(body.knowledge_ids, index.knowledge_ids)) changes.knowledge_ids = body.knowledge_ids;
  if (body.mode !== undefined && body.mode !== index.mode) changes.mode = body.mode;
  if (body.top_k !== undefined && body.top_k !== index.top_k) changes.top_k = body.top_k;
  if (body.score_threshold !== undefined && body.score_threshold !== index.score_threshold)
    changes.score_threshold = body.score_threshold;
  const model = body.embedding_model_id ?? null;
  if (model !== index.embedding_model_id) changes.embedding_model_id = model;
  return changes;
}

/** The form field each refusal of the API is about. */
export const FIELD_OF_ERROR: Partial<Record<ErrorCode, keyof IndexFormValues>> = {
  'index/name-taken': 'name',
  'index/unknown-knowledge': 'knowledge_ids',
  'index/embedding-model-required': 'embedding_model_id',
  'index/unknown-embedding-model': 'embedding_model_id',
};

/** The confirmation before an index is deleted. */
export const deleteIndexConfirm = (index: Pick<Index, 'name'>) => ({
  title: 'Delete index',
  message: `"${index.name}" and its embeddings will be deleted; its knowledge bases stay. This cannot be undone.`,
  confirmLabel: 'Delete',
  danger: true,
});

/** The toast title of a refused delete; RAGs that use the index keep it alive. */
export const deleteIndexFailure = (error: unknown) =>
  hasErrorCode(error, 'index/in-use') ? 'The index is in use' : 'The index was not deleted';

/** The share of chunks embedded, 0 to 100 (100 when there is nothing to embed). */
export const embeddedPercent = ({ done, total }: Pick<IndexEmbedding, 'done' | 'total'>) =>
  total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 100;
