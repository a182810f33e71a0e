import { z } from 'zod';
import { ApiError, api } from '../../../lib/api-client';

/** GET /v1/session: the signed-in user and their tenant. */
export const SessionUserSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  tenant_id: z.string(),
  role: z.string(),
  must_change_password: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** The signed-in user, or null when nobody is (401). Any other failure throws. */
export async function getSessionUser(): Promise<SessionUser | null> {
  try {
    return await api.get('/v1/session', { schema: SessionUserSchema });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}
