import { useEffect, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Where Tab (Shift+Tab when `backwards`) must move the focus for it to stay inside `root`: its first focusable
 * element after the last (its last before the first), either one when the focus is outside; null when the
 * browser's own move stays inside or nothing inside takes the focus.
 */
export function focusTrapTarget(
  root: HTMLElement,
  active: Element | null,
  backwards: boolean,
): HTMLElement | null {
  const focusable = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (first === undefined || last === undefined) return null;
  const inside = active instanceof HTMLElement && root.contains(active);
  if (backwards) return !inside || active === first ? last : null;
  return !inside || active === last ? first : null;
}

/** Esc calls `onEscape`; Tab and Shift+Tab cycle through the focusable elements of `root`. */
export function useFocusTrap(root: RefObject<HTMLElement | null>, onEscape: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        onEscape();
        return;
      }
      if (event.key !== 'Tab' || root.current === null) return;
      const target = focusTrapTarget(root.current, document.activeElement, event.shiftKey);
      if (target === null) return;
      event.preventDefault();
      target.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [root, onEscape]);
}
