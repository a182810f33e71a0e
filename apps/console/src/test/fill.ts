import type { UserEvent } from '@testing-library/user-event';

/** Enters `text` as one paste: typing long passwords key by key is slow on a busy machine, and adds nothing. */
export async function fill(user: UserEvent, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}
