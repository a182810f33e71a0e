import type { MenuSearchEntry } from '@omnibot/contracts';

/** True when the visible menu has a link to `route`: the pages behind a menu entry follow its rule. */
export const isMenuRouteVisible = (entries: readonly MenuSearchEntry[], route: string) =>
  entries.some((entry) => entry.route === route);
