export { searchKeyword, searchKeywordWithSources, type KeywordHit, type KeywordSourceHit } from './bm25';
export { deleteSourceChunks, indexChunks, indexQa } from './index-store';
export { matchQa, type QaMatch } from './qa-match';
export { textSearchConfigFor } from './text-search-config';
