import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { XSS_PAYLOADS } from '../test/xss-payloads';
import { Markdown, safeHref, safeImage } from './markdown';

afterEach(cleanup);

function renderMarkdown(text: string): HTMLElement {
  return render(
    <div data-testid="md">
      <Markdown text={text} />
    </div>,
  ).getByTestId('md');
}

const SAFE_TAGS = new Set(['DIV', 'P', 'BR', 'STRONG', 'EM', 'CODE', 'PRE', 'UL', 'OL', 'LI', 'A', 'SPAN']);

it('the shared XSS corpus holds at least 50 payloads', () => {
  expect(new Set(XSS_PAYLOADS).size).toBeGreaterThanOrEqual(50);
});

describe('the Markdown renderer', () => {
  it.each(XSS_PAYLOADS)('renders %j without markup, handlers or unsafe links', (payload) => {
    const root = renderMarkdown(payload);
    for (const element of root.querySelectorAll('*')) {
      expect(SAFE_TAGS.has(element.tagName)).toBe(true);
      for (const attribute of element.attributes) {
        expect(attribute.name.startsWith('on')).toBe(false);
        expect(['href', 'target', 'rel', 'data-testid']).toContain(attribute.name);
      }
    }
    for (const anchor of root.querySelectorAll('a')) {
      expect(['http:', 'https:', 'mailto:', 'tel:']).toContain(new URL(anchor.href).protocol);
      expect(anchor.target).toBe('_blank');
      expect(anchor.rel).toContain('noopener');
    }
    expect(root.innerHTML.toLowerCase()).not.toContain('<script');
  });

  it('keeps markup as visible text', () => {
    const root = renderMarkdown('<b>hi</b> & <script>x</script>');
    expect(root.textContent).toBe('<b>hi</b> & <script>x</script>');
  });

  it('renders paragraphs, line breaks, lists, code, bold, italic and safe links', () => {
    const root = renderMarkdown(
      'Hello **big _world_**\nsecond line\n\n- one\n- `two`\n\n1. first\n2. second\n\n```\nconst a = 1;\n```\n' +
        'See [docs](https://docs.example.com/a?b=1), mail [us](mailto:help@example.com), call [now](tel:+15551234) ' +
        'or https://example.com/page.',
    );
    expect(root.querySelector('strong em')?.textContent).toBe('world');
    expect(root.querySelectorAll('p br')).toHaveLength(1);
    expect([...root.querySelectorAll('ul li')].map((item) => item.textContent)).toEqual(['one', 'two']);
    expect(root.querySelector('ul code')?.textContent).toBe('two');
    expect([...root.querySelectorAll('ol li')].map((item) => item.textContent)).toEqual(['first', 'second']);
    expect(root.querySelector('pre code')?.textContent).toBe('const a = 1;');
    expect([...root.querySelectorAll('a')].map((anchor) => anchor.getAttribute('href'))).toEqual([
      'https://docs.example.com/a?b=1',
      'mailto:help@example.com',
      'tel:+15551234',
      'https://example.com/page',
    ]);
  });

  it('shows a link with an unsafe scheme as its text only', () => {
    const root = renderMarkdown('[press me](javascript:alert(1))');
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toContain('press me');
  });

  it('accepts only absolute http, https, mailto and tel URLs', () => {
    expect(safeHref('https://a.example/x')).toBe('https://a.example/x');
    expect(safeHref('mailto:a@b.example')).toBe('mailto:a@b.example');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('\u0000javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
    expect(safeHref('/local')).toBeNull();
  });

  it('takes only absolute http and https URLs as images', () => {
    expect(safeImage('https://cdn.example/a b.png')).toBe('https://cdn.example/a%20b.png');
    expect(safeImage('http://cdn.example/tone.mp3')).toBe('http://cdn.example/tone.mp3');
    expect(safeImage('data:image/svg+xml,<svg onload=alert(1)>')).toBeNull();
    expect(safeImage('javascript:alert(1)')).toBeNull();
    expect(safeImage('mailto:a@b.example')).toBeNull();
    expect(safeImage('/avatar.png')).toBeNull();
    expect(safeImage('')).toBeNull();
  });
});
