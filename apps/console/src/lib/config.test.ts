import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, readConfig } from './config';

function setMeta(content: string) {
  const meta = document.createElement('meta');
  meta.name = 'omnibot-config';
  meta.setAttribute('content', content);
  document.head.append(meta);
}

describe('readConfig', () => {
  afterEach(() => document.head.querySelectorAll('meta[name="omnibot-config"]').forEach((m) => m.remove()));

  it('reads the values the server injected', () => {
    setMeta('{"productName":"Acme Bot","companyName":"Acme Inc.","environment":"STAGING"}');
    expect(readConfig()).toEqual({
      productName: 'Acme Bot',
      companyName: 'Acme Inc.',
      environment: 'STAGING',
    });
  });

  it('falls back to the defaults without a tag, with broken JSON, or for missing values', () => {
    expect(readConfig()).toEqual(DEFAULT_CONFIG);
    setMeta('{not json');
    expect(readConfig()).toEqual(DEFAULT_CONFIG);
    document.head.querySelector('meta[name="omnibot-config"]')?.remove();
    setMeta('{"productName":"","companyName":42}');
    expect(readConfig()).toEqual(DEFAULT_CONFIG);
  });

  it('uses Omnibot and PRODUCTION by default', () => {
    expect(DEFAULT_CONFIG).toEqual({
      productName: 'Omnibot',
      companyName: 'Omnibot',
      environment: 'PRODUCTION',
    });
  });
});
