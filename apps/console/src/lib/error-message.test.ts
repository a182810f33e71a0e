import { AUTH_MESSAGES, ERROR_CATALOGUE } from '@omnibot/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { errorMessage, hasErrorCode, retryAfterText } from './error-message';

describe('retryAfterText', () => {
  const now = new Date(2026, 0, 1, 14, 20, 0);
  it('says how long to wait and until when', () => {
    expect(retryAfterText(undefined, now)).toBe('');
    expect(retryAfterText(30, now)).toBe('Try again in 30 seconds (at 14:20).');
    expect(retryAfterText(61, now)).toBe('Try again in 2 minutes (at 14:21).');
    expect(retryAfterText(12 * 60, now)).toBe('Try again in 12 minutes (at 14:32).');
    expect(retryAfterText(3500, now)).toBe('Try again in 59 minutes (at 15:18).');
    expect(retryAfterText(3600, now)).toBe('Try again in about an hour (at 15:20).');
  });
});

describe('errorMessage', () => {
  it("shows the server's message, with the retry time after a 429", () => {
    expect(errorMessage(new ApiError(401, 'auth/invalid-credential', AUTH_MESSAGES.wrongCredentials))).toBe(
      AUTH_MESSAGES.wrongCredentials,
    );
    expect(
      errorMessage(new ApiError(429, 'auth/too-many-requests', AUTH_MESSAGES.tooManyRequests, 90)),
    ).toMatch(
      /^Too many attempts\. Please wait and try again later\. Try again in 2 minutes \(at \d\d:\d\d\)\.$/,
    );
    expect(errorMessage(new TypeError('boom'))).toBe('Something went wrong: boom');
    expect(errorMessage('??')).toBe('Something went wrong. Please try again.');
  });
});

describe('error codes from the catalogue', () => {
  it("falls back to the catalogue's message when an answer carries none", () => {
    expect(errorMessage(new ApiError(409, 'last_administrator', ''))).toBe(
      ERROR_CATALOGUE.last_administrator,
    );
    expect(errorMessage(new ApiError(409, 'not_in_catalogue', ''))).toBe('');
  });

  it('tells whether an API error or an upload failure carries a code', () => {
    expect(hasErrorCode(new ApiError(409, 'domain_taken', 'taken'), 'domain_taken')).toBe(true);
    expect(hasErrorCode(new ApiError(409, 'conflict', 'x'), 'domain_taken')).toBe(false);
    expect(
      hasErrorCode(
        { status: 402, code: 'storage/quota-exceeded', message: 'full' },
        'storage/quota-exceeded',
      ),
    ).toBe(true);
    expect(hasErrorCode(undefined, 'not_found')).toBe(false);
    expect(hasErrorCode(new Error('x'), 'not_found')).toBe(false);
  });
});
