import { vi } from 'vitest';

/** Makes the browser ask for a light colour scheme (prefers-color-scheme: light); restored with the mocks. */
export function preferLight() {
  const original = window.matchMedia.bind(window);
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
    ...original(query),
    matches: query === '(prefers-color-scheme: light)',
  }));
}
