import { canConfigure } from '@omnibot/contracts';
import { useMenuContext } from './session';

/**
 * Whether a role may change its organisation (account, credential, users): administrators and masters. The
 * server enforces the real rule; the console uses this to offer the actions or show the data read-only.
 */
export const canManageOrganisation = (role: string | undefined): boolean =>
  role === 'administrator' || role === 'master';

/**
 * Whether the signed-in user may configure bots, templates, integrations, prompts, knowledge, indexes and RAGs:
 * agents may not, so their screens offer no create, edit or delete. The server enforces the same rule.
 */
export function useCanConfigure(): boolean {
  return canConfigure(useMenuContext().role);
}
