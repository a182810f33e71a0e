import {
  createTheme,
  localStorageColorSchemeManager,
  type MantineColorScheme,
  type MantineColorSchemeManager,
} from '@mantine/core';

/** Local storage keys of the theme. public/theme-init.js reads APP_MODE_KEY too. */
export const APP_MODE_KEY = 'appMode';
export const THEME_PANEL_TOGGLED_KEY = 'appThemePanelToggled';

export type AppMode = 'dark' | 'light';
export const DEFAULT_APP_MODE: AppMode = 'dark';

/**
 * Stores the display mode in localStorage `appMode`. Only 'dark' and 'light' count, exactly as
 * theme-init.js decides before first paint, so the two never disagree (no 'auto').
 */
export function appModeColorSchemeManager(): MantineColorSchemeManager {
  const manager = localStorageColorSchemeManager({ key: APP_MODE_KEY });
  return {
    ...manager,
    get: (defaultValue: MantineColorScheme) => {
      const value = manager.get(defaultValue);
      return value === 'auto' ? defaultValue : value;
    },
  };
}

export const theme = createTheme({
  primaryColor: 'red',
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
});
