import { describe, expect, it } from 'vitest';
import { BULK_SOURCES_MAX, bulkSourcesProblem } from './knowledge';

describe('bulkSourcesProblem', () => {
  it('accepts a mix of valid sources', () => {
    expect(
      bulkSourcesProblem({
        sources: [
          { type: 'qa', question: 'Q?', answer: 'A.' },
          { type: 'url', url: 'https://example.com', crawl: { depth: 1 } },
          { type: 'file', path: '/a.pdf' },
        ],
      }),
    ).toBeNull();
  });

  it('names the first bad item, counting from 1', () => {
    expect(
      bulkSourcesProblem({
        sources: [
          { type: 'qa', question: 'Q?', answer: 'A.' },
          { type: 'text', title: 'T', text: 'x' },
          { type: 'url', url: 'ftp://example.com' },
        ],
      }),
    ).toBe('Item 3: The address must be a web address starting with http:// or https://');
  });

  it('refuses an empty list, too many items, unknown fields and a missing list', () => {
    expect(bulkSourcesProblem({ sources: [] })).toBe('Add at least one source');
    const many = Array.from({ length: BULK_SOURCES_MAX + 1 }, () => ({
      type: 'qa',
      question: 'q',
      answer: 'a',
    }));
    expect(bulkSourcesProblem({ sources: many })).toBe('At most 500 sources at once');
    expect(
      bulkSourcesProblem({ sources: [{ type: 'qa', question: 'q', answer: 'a' }], extra: 1 }),
    ).not.toBeNull();
    expect(bulkSourcesProblem(null)).not.toBeNull();
    expect(bulkSourcesProblem({})).not.toBeNull();
  });
});
