import type { PublicWidgetConfig } from '@omnibot/contracts';

/**
 * What the server writes into the loader it serves for one bot: the bot, its public configuration and the origins
 * allowed to embed it (public already: the chat page's frame-ancestors policy lists them).
 */
export interface LoaderBoot {
  botId: string;
  config: PublicWidgetConfig;
  allowedOrigins: string[];
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
      typeof boot.config.launcher === 'object' &&
      Array.isArray(boot.allowedOrigins)
      ? (boot as LoaderBoot)
      : null;
  } catch {
    return null;
  }
}
