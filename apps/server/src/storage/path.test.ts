import { describe, expect, it } from 'vitest';
import {
  normalizeName,
  normalizeStoragePath,
  parseTenantKey,
  tenantFolderPrefix,
  tenantObjectKey,
  tenantPrefix,
  uploadStagingKey,
} from './path';
import { TRAVERSAL_ATTEMPTS } from './traversal-cases';

const rejects = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error as { statusCode?: number; code?: string };
  }
  return null;
};

describe('normalizeStoragePath', () => {
  it.each(TRAVERSAL_ATTEMPTS)('rejects %s with 400 storage/invalid-argument', (_label, path) => {
    const error = rejects(() => normalizeStoragePath(path, { allowRoot: true }));
    expect(error).toMatchObject({ statusCode: 400, code: 'storage/invalid-argument' });
  });

  it('has at least 20 traversal cases', () => {
    expect(TRAVERSAL_ATTEMPTS.length).toBeGreaterThanOrEqual(20);
  });

  it('keeps ordinary names, Unicode, spaces, dots inside names and one trailing slash', () => {
    expect(normalizeStoragePath('docs/2026/report.final.pdf')).toBe('docs/2026/report.final.pdf');
    expect(normalizeStoragePath('docs/')).toBe('docs');
    expect(normalizeStoragePath('Données/été (1).png')).toBe('Données/été (1).png');
    expect(normalizeStoragePath('.env')).toBe('.env');
    expect(normalizeStoragePath('..hidden')).toBe('..hidden');
    expect(normalizeStoragePath('50% off.pdf')).toBe('50% off.pdf');
    expect(normalizeStoragePath('a'.repeat(255))).toHaveLength(255);
  });

  it('normalises to NFC so one name has one spelling', () => {
    expect(normalizeStoragePath('e\u0301te.txt')).toBe('\u00e9te.txt');
  });

  it('accepts the root only when asked', () => {
    expect(normalizeStoragePath('', { allowRoot: true })).toBe('');
    expect(rejects(() => normalizeStoragePath(''))).toMatchObject({ statusCode: 400 });
    expect(rejects(() => normalizeStoragePath('/', { allowRoot: true }))).toMatchObject({ statusCode: 400 });
    expect(rejects(() => normalizeStoragePath(42))).toMatchObject({ statusCode: 400 });
  });

  it('takes a single segment as a name', () => {
    expect(normalizeName('a.png')).toBe('a.png');
    expect(rejects(() => normalizeName('a/b.png'))).toMatchObject({ statusCode: 400 });
  });
});

describe('object keys', () => {
  it('puts every tenant object under tenants/<tenant_id>/', () => {
    expect(tenantPrefix('t-1')).toBe('tenants/t-1/');
    expect(tenantObjectKey('t-1', 'docs/a.pdf')).toBe('tenants/t-1/docs/a.pdf');
    expect(tenantFolderPrefix('t-1', '')).toBe('tenants/t-1/');
    expect(tenantFolderPrefix('t-1', 'docs')).toBe('tenants/t-1/docs/');
    expect(parseTenantKey('tenants/t-1/docs/a.pdf')).toEqual({ tenantId: 't-1', path: 'docs/a.pdf' });
    expect(parseTenantKey('uploads/abc')).toBeNull();
  });

  it('never builds a key from a traversal path or an unsafe tenant id', () => {
    for (const [, path] of TRAVERSAL_ATTEMPTS) expect(() => tenantObjectKey('t-1', path)).toThrow();
    for (const tenant of ['', '..', 'a/b', 't 1', 'x'.repeat(65)])
      expect(() => tenantPrefix(tenant)).toThrow();
    expect(() => uploadStagingKey('../x')).toThrow();
    expect(uploadStagingKey('0123456789abcdef0123456789abcdef')).toBe(
      'uploads/0123456789abcdef0123456789abcdef',
    );
  });
});
