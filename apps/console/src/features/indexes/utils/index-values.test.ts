import { describe, expect, it } from 'vitest';
import { EMBEDDING_MODEL, indexFixture, KB_FAQ, KB_MANUALS } from '../../../test/index-fixture';
import { embeddedPercent, indexBodyOf, indexChangesOf, indexValuesOf } from './index-values';

describe('indexChangesOf', () => {
  it('sends only what changed, so a new name does not re-embed', () => {
    const stored = indexFixture();
    expect(indexChangesOf(stored, indexBodyOf({ ...indexValuesOf(stored), name: 'Renamed' }))).toEqual({
      name: 'Renamed',
    });
    expect(
      indexChangesOf(
        stored,
        indexBodyOf({
          ...indexValuesOf(stored),
          knowledge_ids: [KB_MANUALS, KB_FAQ],
          mode: 'keyword',
          embedding_model_id: '',
        }),
      ),
    ).toEqual({ knowledge_ids: [KB_MANUALS, KB_FAQ], mode: 'keyword', embedding_model_id: null });
    expect(indexChangesOf(stored, indexBodyOf(indexValuesOf(stored)))).toEqual({});
    expect(stored.embedding_model_id).toBe(EMBEDDING_MODEL);
  });
});

describe('embeddedPercent', () => {
  it('rounds the share of embedded chunks and counts nothing to embed as done', () => {
    expect(embeddedPercent({ done: 1, total: 3 })).toBe(33);
    expect(embeddedPercent({ done: 0, total: 0 })).toBe(100);
  });
});
