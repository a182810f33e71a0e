import { ROLE_ABILITIES, type Role } from '@omnibot/contracts';

export const ROLE_LABELS: Record<Role, string> = {
  master: 'Master',
  administrator: 'Administrator',
  user: 'User',
  agent: 'Agent',
};

export const ROLE_COLORS: Record<Role, string> = {
  master: 'grape',
  administrator: 'red',
  user: 'blue',
  agent: 'gray',
};

/** What each role may do, for the role picker. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = ROLE_ABILITIES;
