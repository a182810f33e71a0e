import { describe, expect, it } from 'vitest';
import { parseUrlList } from './url-list';

describe('parseUrlList', () => {
  it('keeps valid addresses in order, once each, and names the bad lines', () => {
    const result = parseUrlList(
      [
        'https://example.com/help',
        '',
        '  https://EXAMPLE.com/help  ',
        'ftp://example.com/file',
        'not an address',
        'http://example.org',
        'http://example.org/',
      ].join('\r\n'),
    );
    expect(result.urls).toEqual(['https://example.com/help', 'http://example.org']);
    expect(result.duplicates).toBe(2);
    expect(result.problems).toEqual([
      { line: 4, message: 'The address must be a web address starting with http:// or https://' },
      { line: 5, message: 'The address must be a web address starting with http:// or https://' },
    ]);
  });

  it('gives nothing for blank text', () => {
    expect(parseUrlList(' \n\n')).toEqual({ urls: [], problems: [], duplicates: 0 });
  });
});
