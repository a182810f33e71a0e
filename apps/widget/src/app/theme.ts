import type { PublicWidgetConfig } from '@omnibot/contracts';
import { useEffect, useState, type CSSProperties } from 'react';

/** Whether the visitor's system asks for dark colours, following changes while the chat is open. */
export function usePrefersDark(): boolean {
  const [query] = useState(() =>
    typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null,
  );
  const [dark, setDark] = useState(query?.matches === true);
  useEffect(() => {
    if (query === null) return;
    const update = () => setDark(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, [query]);
  return dark;
}

/** The configuration's light or dark colours and fonts as CSS custom properties for the chat's stylesheet. */
export function themeOf(config: PublicWidgetConfig, dark: boolean): CSSProperties {
  const { appearance, launcher } = config;
  const pick = (colours: { backgroundColor: string; backgroundColorDark: string }) =>
    dark ? colours.backgroundColorDark : colours.backgroundColor;
  const ink = (colours: { textColor: string; textColorDark: string }) =>
    dark ? colours.textColorDark : colours.textColor;
  return {
    '--ob-bg': pick(appearance),
    '--ob-fg': dark ? '#f1f3f5' : '#1a1b1e',
    '--ob-muted': dark ? '#adb5bd' : '#495057',
    '--ob-user-bg': pick(appearance.userBubble),
    '--ob-user-fg': ink(appearance.userBubble),
    '--ob-bot-bg': pick(appearance.botBubble),
    '--ob-bot-fg': ink(appearance.botBubble),
    '--ob-button-bg': pick(appearance.button),
    '--ob-button-fg': ink(appearance.button),
    '--ob-link': dark ? appearance.button.linkColorDark : appearance.button.linkColor,
    '--ob-font': appearance.bubble.fontFamily,
    '--ob-font-size': appearance.bubble.fontSize,
    '--ob-header-bg': launcher.background,
    '--ob-header-fg': launcher.headerColor,
    '--ob-header-font': launcher.headerFontFamily,
    colorScheme: dark ? 'dark' : 'light',
  } as CSSProperties;
}
