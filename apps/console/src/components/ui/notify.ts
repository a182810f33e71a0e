import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../lib/error-message';

/** Toasts stay 5000 ms. */
export const TOAST_DELAY_MS = 5000;

/** A green toast saying a change went through. */
export function notifySuccess(message: string, title?: string): void {
  notifications.show({ color: 'teal', title, message, autoClose: TOAST_DELAY_MS });
}

/** A red toast with the server's `{ message }` (or what went wrong otherwise): nothing fails silently. */
export function notifyError(error: unknown, title = 'That did not work'): void {
  notifications.show({ color: 'red', title, message: errorMessage(error), autoClose: TOAST_DELAY_MS });
}
