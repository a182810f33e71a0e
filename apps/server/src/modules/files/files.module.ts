import type { Server as TusServer } from '@tus/server';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../../env';
import { createStorage, type Storage } from '../../storage';
import { createSourceLinks, type SourceLinks } from '../../storage/source-links';
import { createUrlSigner, createWidgetImageSigner, type WidgetImageSigner } from '../../storage/url-signer';
import type { Identity } from '../auth/principal';
import { createTusServer, filesUploadRoutes } from './files-upload.routes';
import { filesRoutes } from './files.routes';
import { loadFilesUrlSecret, sweepExpiredUploads } from './files.service';

export interface FilesHandle {
  /** The storage driver (read a tenant's object with `driver.get(tenantObjectKey(tenantId, path))`). */
  storage: Storage;
  /** Deletes expired unfinished uploads now (also runs every UPLOAD_SWEEP_MINUTES). */
  sweepExpiredUploads(): Promise<number>;
  /** Permanent links to files a bot's widget shows (served at /v1/widget/:botId/image). */
  widgetImages: WidgetImageSigner;
  /** The links of answer sources: web pages as they are, files of the tenant's storage as signed downloads. */
  sourceLinks: SourceLinks;
}

/**
 * Tenant file storage: REST under /v1/files, tus uploads at /v1/files/upload, and the expiry sweep. Returns the
 * handle other modules are given (storage, widget image links, source links).
 */
export async function registerFiles(
  app: FastifyInstance,
  deps: { identity: Identity; env: Env },
): Promise<FilesHandle> {
  const { identity, env } = deps;
  const { db } = identity;
  const secret = await loadFilesUrlSecret(db);
  const storage = createStorage(env, secret);
  const filesDeps = { db, env, storage };
  let tusServer: TusServer | undefined;
  const tus = () => (tusServer ??= createTusServer(filesDeps, app.log));

  async function sweep(): Promise<number> {
    const swept = await sweepExpiredUploads(filesDeps);
    // tus' own expiration catches staged uploads whose rows are gone (a crash between the two steps).
    const orphans = await tus()
      .cleanUpExpiredUploads()
      .catch((error: unknown) => {
        app.log.warn({ err: error }, 'tus expiry cleanup failed');
        return 0;
      });
    if (swept + orphans > 0) app.log.info({ swept, orphans }, 'deleted expired unfinished uploads');
    return swept;
  }

  const widgetImages = createWidgetImageSigner(secret, env.PUBLIC_URL);
  const signer = createUrlSigner(secret, env.PUBLIC_URL);
  const sourceLinks = createSourceLinks(signer, env.PUBLIC_URL, env.FILE_URL_TTL_SECONDS);
  filesRoutes(app, { ...filesDeps, identity, signer });
  await filesUploadRoutes(app, { ...filesDeps, identity, tus });

  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      sweep().catch((error: unknown) => app.log.error({ err: error }, 'upload expiry sweep failed'));
    }, env.UPLOAD_SWEEP_MINUTES * 60_000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    storage.driver.close();
  });
  return { storage, sweepExpiredUploads: sweep, widgetImages, sourceLinks };
}
