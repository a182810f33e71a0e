import { describe, expect, it } from 'vitest';
import { AUTH_ERROR_CODES, AUTH_MESSAGES } from './auth';
import { ERROR_CATALOGUE, isErrorCode } from './errors';
import { STORAGE_ERRORS } from './files';

describe('error catalogue', () => {
  it('holds every identity code with its spec message', () => {
    for (const key of Object.keys(AUTH_ERROR_CODES) as Array<keyof typeof AUTH_ERROR_CODES>) {
      expect(ERROR_CATALOGUE[AUTH_ERROR_CODES[key]], key).toBe(AUTH_MESSAGES[key]);
    }
  });

  it('holds every storage code with its message', () => {
    for (const [code, { message }] of Object.entries(STORAGE_ERRORS)) {
      expect(isErrorCode(code), code).toBe(true);
      expect(ERROR_CATALOGUE[code as keyof typeof STORAGE_ERRORS]).toBe(message);
    }
  });

  it('knows the general codes and nothing else', () => {
    expect(ERROR_CATALOGUE.domain_taken).toMatch(/domain/);
    expect(isErrorCode('last_administrator')).toBe(true);
    expect(isErrorCode('auth/tenant-disabled')).toBe(true);
    expect(isErrorCode('no_such_code')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });
});
