import {
  ColorInput,
  type CSSVariablesResolver,
  createTheme,
  localStorageColorSchemeManager,
  type MantineColorSchemeManager,
} from '@mantine/core';

/** Local storage keys of the theme. public/theme-init.js reads APP_MODE_KEY too. */
export const APP_MODE_KEY = 'appMode';
export const THEME_PANEL_TOGGLED_KEY = 'appThemePanelToggled';

export type AppMode = 'dark' | 'light';
/** The mode when neither a choice nor the browser says otherwise. */
export const DEFAULT_APP_MODE: AppMode = 'dark';

/** The browser's preferred mode (prefers-color-scheme): light only when it asks for light. */
export function preferredAppMode(): AppMode {
  return window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : DEFAULT_APP_MODE;
}

/**
 * Stores the display mode in localStorage `appMode`. Only 'dark' and 'light' count, exactly as theme-init.js decides
 * before first paint, so the two never disagree (no 'auto'). Until the user chooses, the browser's preference applies.
 */
export function appModeColorSchemeManager(): MantineColorSchemeManager {
  const manager = localStorageColorSchemeManager({ key: APP_MODE_KEY });
  return {
    ...manager,
    get: () => {
      const value = manager.get('auto');
      return value === 'auto' ? preferredAppMode() : value;
    },
  };
}

export const theme = createTheme({
  primaryColor: 'red',
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  components: {
    // The eye dropper is an icon-only button: it needs a name for screen readers.
    ColorInput: ColorInput.extend({
      defaultProps: { eyeDropperButtonProps: { 'aria-label': 'Pick a colour from the screen' } },
    }),
  },
});

/**
 * Dimmed text (descriptions, section titles, the footer) is Mantine's gray 6 on white (3.3:1) and dark 2 on the dark
 * body (about 4:1), both under the 4.5:1 that small text needs. Gray 7 and dark 1 keep it visibly secondary at 7:1
 * and more.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});
