import { notifications } from '@mantine/notifications';
import { ApiError } from '../../lib/api-client';
import { describeUploadError } from '../../lib/files/tus-transport';
import { TOAST_DELAY_MS } from '../ui/notify';

/** A red toast about an upload: plain text as it is, the server's message, or what tus ran into. */
export function notifyUploadProblem(title: string, problem: unknown): void {
  let message: string;
  if (typeof problem === 'string') message = problem;
  else if (problem instanceof ApiError) message = problem.message;
  else if (problem instanceof Error) message = describeUploadError(problem).message;
  else message = 'Something went wrong. Please try again.';
  notifications.show({ color: 'red', title, message, autoClose: TOAST_DELAY_MS });
}
