import { describe, expect, it } from 'vitest';
import { isWebLink, safeSourceHref } from './links';

const ORIGIN = 'https://omnibot.example';

describe('source links', () => {
  it('accepts absolute http and https addresses only', () => {
    expect(isWebLink('https://docs.example.com/a?b=1')).toBe(true);
    expect(isWebLink('HTTP://docs.example.com/')).toBe(true);
    for (const value of [
      "javascript:window.__xss=1;void'.pdf'",
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'file:///etc/passwd',
      'manuals/guide.pdf',
      '//evil.example/x',
      '',
    ])
      expect(isWebLink(value), value).toBe(false);
  });

  it('gives an href to web addresses and to same-origin signed download paths, and to nothing else', () => {
    expect(safeSourceHref('https://docs.example.com/a', ORIGIN)).toBe('https://docs.example.com/a');
    expect(safeSourceHref('/v1/files/download?tenant=t&path=a.pdf&expires=1&signature=s', ORIGIN)).toBe(
      `${ORIGIN}/v1/files/download?tenant=t&path=a.pdf&expires=1&signature=s`,
    );
    for (const value of [
      "javascript:window.__xss=1;void'.pdf'",
      'manuals/guide.pdf',
      '/v1/files/list',
      '/v1/files/download/../../v1/session?x',
      '//evil.example/v1/files/download?x',
      '/\\evil.example/v1/files/download?x',
      null,
      undefined,
    ])
      expect(safeSourceHref(value, ORIGIN), String(value)).toBeNull();
  });
});
