import { api } from '../../../lib/api-client';

/** Ends the server session and clears its cookie. */
export const signOut = () => api.post<unknown>('/api/auth/sign-out', {});
