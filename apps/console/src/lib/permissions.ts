/**
 * Whether a role may change its organisation (account, credential, users): administrators and masters. The
 * server enforces the real rule; the console uses this to offer the actions or show the data read-only.
 */
export const canManageOrganisation = (role: string | undefined): boolean =>
  role === 'administrator' || role === 'master';
