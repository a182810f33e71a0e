import { ROLE_RANK, RoleSchema, type Profile, type Role } from '@omnibot/contracts';
import { z } from 'zod';
import { displayNameOf } from './format';
import { ROLE_LABELS } from './roles';
import { UserDetailsFormSchema, userDetailsValuesOf, type UserDetailsValues } from './user-details';

export const UserEditFormSchema = UserDetailsFormSchema.extend({ role: RoleSchema, is_active: z.boolean() });
export type UserEditValues = UserDetailsValues & { role: Role; is_active: boolean };

export const userEditValuesOf = (user: Profile): UserEditValues => ({
  ...userDetailsValuesOf(user),
  role: user.role,
  is_active: user.is_active,
});

/** What the change takes away, to confirm first: disabling, or a lower role. Null when nothing is lost. */
export function lossOf(user: Profile, next: { role: Role; is_active: boolean }): string | null {
  const name = displayNameOf(user);
  if (user.is_active && !next.is_active) {
    return `${name} is signed out at once and cannot sign in until the account is enabled again.`;
  }
  if (ROLE_RANK[next.role] < ROLE_RANK[user.role]) {
    return `${name} goes from ${ROLE_LABELS[user.role]} to ${ROLE_LABELS[next.role]} and loses what only a ${ROLE_LABELS[user.role].toLowerCase()} may do.`;
  }
  return null;
}
