import type { PublicWidgetConfig } from '@omnibot/contracts';

/** What the server writes into the loader it serves for one bot: the bot and its public configuration. */
export interface LoaderBoot {
  botId: string;
  config: PublicWidgetConfig;
}

/**
 * The boot data the server substituted for the loader's placeholder, or null when the loader was served unchanged
 * (the placeholder itself) or the text is not a boot object.
 */
export function readBoot(embedded: string): LoaderBoot | null {
  if (embedded.charAt(0) !== '{') return null;
  try {
    const boot = JSON.parse(embedded) as Partial<LoaderBoot> | null;
    return typeof boot?.botId === 'string' &&
      typeof boot.config === 'object' &&
      boot.config !== null &&
      typeof boot.config.launcher === 'object'
      ? (boot as LoaderBoot)
      : null;
  } catch {
    return null;
  }
}
