import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures/load';
import { parseMarkdown, stripInline } from './parse-markdown';

describe('Markdown parsing', () => {
  it('reads nested headings, a nested list, a table and a code fence, and skips front matter', () => {
    const document = parseMarkdown(fixture('guide.md').toString('utf8'));
    expect(document.title).toBe('Installation guide');
    expect(document.blocks.map((b) => [b.kind, b.text, b.level ?? null, b.headingPath.join(' > ')])).toEqual([
      ['heading', 'Installation guide', 1, 'Installation guide'],
      ['paragraph', 'Omnibot runs on Node 20 and stores its data in PostgreSQL.', null, 'Installation guide'],
      ['heading', 'Requirements', 2, 'Installation guide > Requirements'],
      ['list-item', 'A machine with two cores', 1, 'Installation guide > Requirements'],
      ['list-item', 'At least four gigabytes of memory', 1, 'Installation guide > Requirements'],
      ['list-item', 'eight are better for large knowledge bases', 2, 'Installation guide > Requirements'],
      ['list-item', 'Network access to the model provider', 1, 'Installation guide > Requirements'],
      ['heading', 'Ports', 3, 'Installation guide > Requirements > Ports'],
      ['table-row', 'Service: API; Port: 3001', null, 'Installation guide > Requirements > Ports'],
      ['table-row', 'Service: Console; Port: 5173', null, 'Installation guide > Requirements > Ports'],
      ['heading', 'Start the server', 2, 'Installation guide > Start the server'],
      [
        'paragraph',
        'Run the start script and wait for the health check:',
        null,
        'Installation guide > Start the server',
      ],
      ['code', 'npm run build\nnpm start', null, 'Installation guide > Start the server'],
      ['list-item', 'Open the console.', 1, 'Installation guide > Start the server'],
      ['list-item', 'Sign in with the first account.', 1, 'Installation guide > Start the server'],
    ]);
    expect(document.blocks.some((b) => b.text.includes('front matter'))).toBe(false);
  });

  it('reads setext headings and joins a paragraph’s lines', () => {
    const document = parseMarkdown('Title\n=====\n\nfirst line\nsecond line\n\nPart\n----\ntext');
    expect(document.blocks.map((b) => [b.kind, b.text, b.level ?? null])).toEqual([
      ['heading', 'Title', 1],
      ['paragraph', 'first line second line', null],
      ['heading', 'Part', 2],
      ['paragraph', 'text', null],
    ]);
  });

  it('keeps the text of links, images and emphasis only', () => {
    expect(stripInline('See [the docs](https://x.y) and ![a chart](c.png), **bold**, _it_, `code`.')).toBe(
      'See the docs and a chart, bold, it, code.',
    );
  });
});
