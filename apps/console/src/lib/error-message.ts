import { AUTH_ERROR_CODES, ERROR_CATALOGUE, type ErrorCode, isErrorCode } from '@omnibot/contracts';
import { ApiError } from './api-client';

const pad = (value: number) => String(value).padStart(2, '0');

/** "Try again in 12 minutes (at 14:32)." from a Retry-After in seconds. */
export function retryAfterText(seconds: number | undefined, now = new Date()): string {
  if (seconds === undefined) return '';
  const at = new Date(now.getTime() + seconds * 1000);
  const clock = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  let wait: string;
  if (seconds < 60) wait = seconds <= 1 ? 'a second' : `${seconds} seconds`;
  else if (seconds < 3600) {
    const minutes = Math.ceil(seconds / 60);
    wait = minutes === 1 ? '1 minute' : `${minutes} minutes`;
  } else {
    const hours = Math.round(seconds / 3600);
    wait = hours === 1 ? 'about an hour' : `about ${hours} hours`;
  }
  return `Try again in ${wait} (at ${clock}).`;
}

/** What to tell the user about a failed call: the server's message, with when to retry after a 429. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429 || error.code === AUTH_ERROR_CODES.tooManyRequests) {
      return [error.message, retryAfterText(error.retryAfterSeconds)].filter(Boolean).join(' ');
    }
    return error.message || (isErrorCode(error.code) ? ERROR_CATALOGUE[error.code] : '');
  }
  if (error instanceof Error && error.message) return `Something went wrong: ${error.message}`;
  return 'Something went wrong. Please try again.';
}

/** The error code of an API answer, if it is one. */
export const errorCode = (error: unknown) => (error instanceof ApiError ? error.code : undefined);

/** Whether an error (an ApiError or any `{ code }`) carries `code`, which must be in the contracts' catalogue. */
export const hasErrorCode = (error: unknown, code: ErrorCode): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === code;
