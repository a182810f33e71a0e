import type { Profile } from '@omnibot/contracts';

/** "Grace Hopper", else the display name, else the e-mail's local part. */
export function displayNameOf(user: Pick<Profile, 'info' | 'username' | 'email'>): string {
  const full = [user.info.firstname, user.info.lastname].filter(Boolean).join(' ').trim();
  return full || user.username || user.email.split('@')[0] || user.email;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
export const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));
