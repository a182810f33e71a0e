import { STORAGE_ERRORS, type StorageErrorCode } from '@omnibot/contracts';
import { ApiError } from '../api-client';

const isStorageCode = (code: string): code is StorageErrorCode => Object.hasOwn(STORAGE_ERRORS, code);

/** What to tell the user about a failed files call: the server's message, else the catalogue's for its code. */
export function storageErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.message) return error.message;
    if (isStorageCode(error.code)) return STORAGE_ERRORS[error.code].message;
  }
  if (error instanceof Error && error.message) return `Something went wrong: ${error.message}`;
  return STORAGE_ERRORS['storage/unknown'].message;
}
