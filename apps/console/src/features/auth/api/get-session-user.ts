import { SessionAnswerSchema, type SessionUser } from '@omnibot/contracts';
import { api } from '../../../lib/api-client';

/** GET /v1/session: the signed-in user, or null when nobody is (the server answers 200 null). Failures throw. */
export function getSessionUser(): Promise<SessionUser | null> {
  return api.get('/v1/session', { schema: SessionAnswerSchema });
}
