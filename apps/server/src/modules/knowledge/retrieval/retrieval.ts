export {
  BM25_B,
  BM25_K1,
  MAX_TOP_K,
  keywordSearchSql,
  searchKeyword,
  searchKeywordWithSources,
  type KeywordHit,
  type KeywordSearchInput,
  type KeywordSourceHit,
} from './bm25';
export {
  deleteSourceChunks,
  indexChunks,
  indexQa,
  labelsOf,
  type IndexChunksInput,
  type IndexQaInput,
  type QaPairInput,
} from './index-store';
export {
  QA_MIN_NORMALISED_SCORE,
  QA_MIN_QUERY_COVERAGE,
  matchQa,
  type QaMatch,
  type QaMatchInput,
} from './qa-match';
export { textSearchConfigFor } from './text-search-config';
