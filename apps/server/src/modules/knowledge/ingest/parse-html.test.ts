import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures/load';
import { parseHtml } from './parse-html';

const long = (topic: string) =>
  `${topic} is explained here in detail, with enough words for a reader to follow every step of the process without guessing. `.repeat(
    3,
  );

describe('HTML parsing', () => {
  it('keeps the article and drops navigation, cookie banner, footer, scripts and styles', () => {
    const document = parseHtml(fixture('article.html').toString('utf8'));
    expect(document.title).toBe('Support hours');
    const text = document.blocks.map((b) => b.text).join('\n');
    expect(text).toContain('Our support desk answers messages every weekday');
    // A link keeps its text only.
    expect(text).toContain('Outside those hours, the chatbot collects your question');
    for (const noise of ['Pricing', 'cookies', 'All rights reserved', 'Imprint', 'tracking', 'font-family']) {
      expect(text).not.toContain(noise);
    }
    expect(document.blocks.map((b) => [b.kind, b.headingPath.join(' > ')])).toContainEqual([
      'heading',
      'Support hours > Outages',
    ]);
    expect(document.blocks.filter((b) => b.kind === 'list-item').map((b) => b.text)).toEqual([
      'Email: help@example.com',
      'Phone: +1 555 0100, weekdays only',
    ]);
    expect(document.blocks.filter((b) => b.kind === 'table-row').map((b) => b.text)).toEqual([
      'Plan: Basic; Response time: 2 working days',
      'Plan: Business; Response time: 4 hours',
    ]);
  });

  it('uses Readability to find the content of a page without main or article markup', () => {
    const html = `<!doctype html><html><head><title>Refunds - Shop</title></head><body>
      <div class="header"><a href="/">Shop</a> <a href="/cart">Cart</a></div>
      <div class="sidebar"><p><a href="/a">Related: gift cards</a></p><p><a href="/b">Related: vouchers</a></p></div>
      <div class="content"><h1>Refunds</h1><p>${long('The refund policy')}</p><p>${long('The return shipping label')}</p><p>${long('The store credit option')}</p></div>
    </body></html>`;
    const document = parseHtml(html);
    const text = document.blocks.map((b) => b.text).join('\n');
    expect(text).toContain('The refund policy is explained here');
    expect(text).toContain('The store credit option is explained here');
    expect(text).not.toContain('Related: gift cards');
    expect(text).not.toContain('Cart');
    expect(document.title).toBe('Refunds');
    expect(document.blocks[0]).toEqual({
      kind: 'heading',
      text: 'Refunds',
      level: 1,
      headingPath: ['Refunds'],
    });
  });

  it('falls back to the body, without navigation, footer and scripts, for a short page that is not an article', () => {
    const document = parseHtml(
      '<html><head><title>Opening hours</title><style>p{color:red}</style></head><body><nav><a href="/">Home</a></nav><script>track()</script><p>Open daily 9 to 5.</p><ul><li>Closed on holidays</li><li>Late opening Thursday<ul><li>until 8</li></ul></li></ul><footer>Imprint</footer></body></html>',
    );
    expect(document.title).toBe('Opening hours');
    expect(document.blocks.map((b) => [b.kind, b.text, b.level])).toEqual([
      ['paragraph', 'Open daily 9 to 5.', undefined],
      ['list-item', 'Closed on holidays', 1],
      ['list-item', 'Late opening Thursday', 1],
      ['list-item', 'until 8', 2],
    ]);
  });

  it('keeps preformatted code with its line breaks and reads tables without a header row as cells', () => {
    const document = parseHtml(
      '<body><pre>line one\n  indented two</pre><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table></body>',
    );
    expect(document.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['code', 'line one\n  indented two'],
      ['table-row', 'a; b'],
      ['table-row', 'c; d'],
    ]);
  });
});
