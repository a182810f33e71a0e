import type { Passage } from '../../indexes/search';

export type { Passage };

/** A passage as cited in an answer; `n` is the number its marker [n] carries in the answer text. */
export interface AnswerSource {
  n: number;
  chunkId: string;
  sourceId: string;
  title: string;
  url: string | null;
  headingPath: string[];
  page: number | null;
}

export function toSource(passage: Passage, n: number): AnswerSource {
  return {
    n,
    chunkId: passage.chunkId,
    sourceId: passage.sourceId,
    title: passage.title,
    url: passage.url ?? null,
    headingPath: passage.headingPath,
    page: passage.page ?? null,
  };
}
