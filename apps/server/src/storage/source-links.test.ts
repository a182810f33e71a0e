import { describe, expect, it } from 'vitest';
import { createSourceLinks } from './source-links';
import { createUrlSigner } from './url-signer';

const PUBLIC_URL = 'https://omnibot.example';
const signer = createUrlSigner('a-test-secret-of-enough-length', PUBLIC_URL);
const links = createSourceLinks(signer, PUBLIC_URL, 3600);

const checkOf = (query: URLSearchParams) =>
  signer.verify({
    tenant: query.get('tenant') ?? '',
    path: query.get('path') ?? '',
    expires: Number(query.get('expires')),
    signature: query.get('signature') ?? '',
  });

const queryOf = (url: string | null) => {
  expect(url?.startsWith(`${PUBLIC_URL}/v1/files/download?`), String(url)).toBe(true);
  return new URL(url ?? '').searchParams;
};

describe('source links', () => {
  it('keeps web pages, signs storage paths for the tenant, and drops anything else', () => {
    expect(links.present('t1', 'https://docs.example.com/a?b=1')).toBe('https://docs.example.com/a?b=1');
    expect(links.present('t1', 'http://docs.example.com/')).toBe('http://docs.example.com/');
    const signed = queryOf(links.present('t1', "javascript:window.__xss=1;void'.pdf'"));
    expect([signed.get('tenant'), signed.get('path')]).toEqual([
      't1',
      "javascript:window.__xss=1;void'.pdf'",
    ]);
    expect(queryOf(links.present('t1', 'manuals/guide.pdf')).get('path')).toBe('manuals/guide.pdf');
    expect(links.present('t1', 'https://exa mple.com/')).toBeNull();
    expect(links.present('t1', null)).toBeNull();
    expect(links.present('t1', '')).toBeNull();
  });

  it('signs a stored download link of the tenant again, and refuses one of another tenant or a forged one', () => {
    const expired = signer.sign('t1', 'manuals/guide.pdf', new Date(Date.now() - 60_000));
    expect(checkOf(queryOf(expired))).toBe('expired');
    const query = queryOf(links.refresh('t1', expired));
    expect(query.get('path')).toBe('manuals/guide.pdf');
    expect(checkOf(query)).toBe('ok');
    expect(links.refresh('t2', expired)).toBeNull();
    const forged = new URL(expired);
    forged.searchParams.set('path', 'other.pdf');
    expect(links.refresh('t1', forged.href)).toBeNull();
    // A storage path stored before links were signed is signed; a web page stays as it is.
    expect(queryOf(links.refresh('t1', 'javascript:alert(1)')).get('path')).toBe('javascript:alert(1)');
    expect(links.refresh('t1', 'https://docs.example.com/')).toBe('https://docs.example.com/');
  });
});
