import { AUTH_MESSAGES } from '@omnibot/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { errorMessage, retryAfterText } from './error-message';

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
