import { describe, expect, it } from 'vitest';
import { loginPathFor, safeNextPath } from './next-path';

describe('safeNextPath', () => {
  it('keeps paths on this site with their query', () => {
    expect(safeNextPath('/user?page=2#top')).toBe('/user?page=2#top');
    expect(safeNextPath('/extra/search')).toBe('/extra/search');
  });

  it('refuses other sites, odd values and the signed-out pages', () => {
    for (const value of [
      null,
      '',
      'user',
      '//evil.test/x',
      '/\\evil.test',
      'https://evil.test/',
      'javascript:alert(1)',
      '/',
      '/login',
      '/register',
      '/bot/password',
    ]) {
      expect(safeNextPath(value), String(value)).toBeUndefined();
    }
  });
});

describe('loginPathFor', () => {
  it('keeps the intended path in ?next=', () => {
    expect(loginPathFor('/user?page=2', '/login')).toBe('/login?next=%2Fuser%3Fpage%3D2');
    expect(loginPathFor('/login', '/login')).toBe('/login');
  });
});
