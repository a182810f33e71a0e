import { flattenMenu, visibleMenu, type MenuSearchEntry, type MenuSection } from '@omnibot/contracts';
import { useMemo } from 'react';
import { useMenuContext } from './session';

/** The menu the current user may see, and the same entries flattened for the menu search. */
export function useVisibleMenu(): { sections: MenuSection[]; entries: MenuSearchEntry[] } {
  const context = useMenuContext();
  return useMemo(() => {
    const sections = visibleMenu(context);
    return { sections, entries: flattenMenu(sections) };
  }, [context]);
}
