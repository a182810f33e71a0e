import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNED_DOWNLOAD_PATH } from '@omnibot/contracts';

export const DOWNLOAD_PATH = SIGNED_DOWNLOAD_PATH;

export interface DownloadQuery {
  tenant: string;
  path: string;
  /** Unix seconds. */
  expires: number;
  signature: string;
}

export type DownloadCheck = 'ok' | 'invalid' | 'expired';

/** Signs local download URLs: HMAC-SHA256 over tenant, path and expiry with the installation's files secret. */
export function createUrlSigner(secret: string, publicUrl: string) {
  const mac = (tenant: string, path: string, expires: number) =>
    createHmac('sha256', secret)
      .update(`omnibot-file-download:v1\n${tenant}\n${path}\n${expires}`)
      .digest('base64url');

  return {
    sign(tenant: string, path: string, expiresAt: Date): string {
      const expires = Math.floor(expiresAt.getTime() / 1000);
      const query = new URLSearchParams({
        tenant,
        path,
        expires: String(expires),
        signature: mac(tenant, path, expires),
      });
      return `${publicUrl}${DOWNLOAD_PATH}?${query.toString()}`;
    },
    verify(query: DownloadQuery, now = new Date()): DownloadCheck {
      const expected = Buffer.from(mac(query.tenant, query.path, query.expires));
      const given = Buffer.from(query.signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return query.expires * 1000 <= now.getTime() ? 'expired' : 'ok';
    },
  };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;

/** Where a bot's widget reads an image (or sound) of its tenant's storage through a permanent signed link. */
export const widgetImagePath = (botId: string) => `/v1/widget/${botId}/image`;

/**
 * Permanent links to files a bot shows publicly (avatar, launcher icons, the receive tone): HMAC-SHA256 over the
 * bot and the path, no expiry. A link serves only while the bot is servable and the file exists.
 */
export function createWidgetImageSigner(secret: string, publicUrl: string) {
  const mac = (botId: string, path: string) =>
    createHmac('sha256', secret).update(`omnibot-widget-image:v1\n${botId}\n${path}`).digest('base64url');
  return {
    link(botId: string, path: string): string {
      const query = new URLSearchParams({ path, signature: mac(botId, path) });
      return `${publicUrl}${widgetImagePath(botId)}?${query.toString()}`;
    },
    verify(botId: string, path: string, signature: string): boolean {
      const expected = Buffer.from(mac(botId, path));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type WidgetImageSigner = ReturnType<typeof createWidgetImageSigner>;
