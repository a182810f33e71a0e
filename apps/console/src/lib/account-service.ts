import { APP_ID_HEADER, CONSOLE_APP_ID } from '@omnibot/contracts';
import { api, type RequestOptions } from './api-client';

type Options<T> = Omit<RequestOptions<T>, 'method' | 'body'>;

const withAppId = <T>(options?: Options<T>): Options<T> => ({
  ...options,
  headers: { ...options?.headers, [APP_ID_HEADER]: CONSOLE_APP_ID },
});

/** The account service (`/v1/Account...`): every call carries the console's application id. */
export const accountService = {
  get: <T>(path: string, options?: Options<T>) => api.get<T>(path, withAppId(options)),
  post: <T>(path: string, body?: unknown, options?: Options<T>) =>
    api.post<T>(path, body, withAppId(options)),
  put: <T>(path: string, body?: unknown, options?: Options<T>) => api.put<T>(path, body, withAppId(options)),
};
