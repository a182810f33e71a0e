import {
  ColorInput,
  type CSSVariablesResolver,
  createTheme,
  darken,
  localStorageColorSchemeManager,
  type MantineTheme,
  type MantineColorSchemeManager,
  Notification,
} from '@mantine/core';

/** Local storage keys of the theme. public/theme-init.js reads APP_MODE_KEY too. */
export const APP_MODE_KEY = 'appMode';
export const THEME_PANEL_TOGGLED_KEY = 'appThemePanelToggled';

export type AppMode = 'dark' | 'light';
/** The mode when neither a choice nor the browser says otherwise. */
export const DEFAULT_APP_MODE: AppMode = 'dark';

/** The browser's preferred mode (prefers-color-scheme): light only when it asks for light. */
function preferredAppMode(): AppMode {
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
  // Red 6 (#fa5252) is 3.3:1 on white and 3.1:1 on striped rows; red 9 is 5.5:1 and 5.2:1 (WCAG AA: 4.5:1).
  // The dark scheme keeps red 8, whose white text is 4.5:1.
  primaryShade: { light: 9, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  components: {
    // The eye dropper is an icon-only button: it needs a name for screen readers.
    ColorInput: ColorInput.extend({
      defaultProps: { eyeDropperButtonProps: { 'aria-label': 'Pick a colour from the screen' } },
    }),
    // Every toast's close button is an icon: it needs a name for screen readers too.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close the notification' } },
    }),
  },
});

/**
 * Text of the light variant (badges, light buttons and alerts) in the light scheme: Mantine's shade 9 on shade 1 is
 * 4.3:1 for teal and under 3:1 for yellow, too little for their 11 px text; shade 9 darkened by 30 % is 4.7:1 or more
 * for every colour, on shade 1 and on its hover shade 2.
 */
function lightVariantTextColors(mantineTheme: MantineTheme): Record<string, string> {
  return Object.fromEntries(
    Object.entries(mantineTheme.colors).map(([name, shades]) => [
      `--mantine-color-${name}-light-color`,
      darken(shades[9], 0.3),
    ]),
  );
}

/**
 * Dimmed text (descriptions, section titles, the footer) is Mantine's gray 6 on white (3.3:1) and dark 2 on the dark
 * body (about 4:1), both under the 4.5:1 that small text needs. Gray 7 and dark 1 keep it visibly secondary at 7:1
 * and more.
 */
export const cssVariablesResolver: CSSVariablesResolver = (mantineTheme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    ...lightVariantTextColors(mantineTheme),
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});
