import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FILES_UPLOAD_PATH, UPLOAD_FILE_PATH_HEADER } from '@omnibot/contracts';
import { eq } from 'drizzle-orm';
import { credentials, subscriptions, tenants, users } from '../../db/schema';
import { hashCredentialSecret } from '../auth/credential-secrets';
import { tenantPrefix } from '../../storage/path';
import { createTestApp, registerVerified, sessionCookie, type TestApp } from '../../test/app';
import { openS3TestDriver, s3TestEnv, startS3TestStore } from '../../test/s3-storage';
import { defined } from '../../test/defined';

export interface Backend {
  name: 'local' | 's3';
}

/**
 * The local file system, and an S3-compatible store: a local S3 server started for each world (s3rver behind the
 * front that adds ListParts and AbortMultipartUpload), or the one S3_TEST_ENDPOINT names.
 */
export const BACKENDS: Backend[] = [{ name: 'local' }, { name: 's3' }];

export interface FilesWorld {
  t: TestApp;
  /** DATA_DIR, inside `root`: nothing may ever be written to `root` outside it. */
  dataDir: string;
  root: string;
  tenantA: string;
  tenantB: string;
  /** E-mail domains of the two tenants (a user registered there joins that tenant). */
  domainA: string;
  domainB: string;
  alice: string;
  bob: string;
  /** Every key or file path the store holds, relative to its root (local) or bucket (S3), sorted. */
  storedKeys(): Promise<string[]>;
  close(): Promise<void>;
}

let worlds = 0;

/** An app on `backend` with two client tenants, each with one signed-in user (alice in A, bob in B). */
export async function createFilesWorld(
  backend: Backend,
  env: Record<string, string> = {},
): Promise<FilesWorld> {
  const root = await fs.mkdtemp(path.join(tmpdir(), 'omnibot-files-'));
  const dataDir = path.join(root, 'data');
  const store = backend.name === 's3' ? await startS3TestStore() : null;
  const backendEnv = store ? s3TestEnv(store.settings) : {};
  const t = await createTestApp({ env: { DATA_DIR: dataDir, ...backendEnv, ...env } });
  worlds += 1;
  const suffix = `${process.pid}${worlds}${Math.floor(Math.random() * 1e6)}`;
  const tenantA = `files-a-${suffix}`;
  const tenantB = `files-b-${suffix}`;
  const [platform] = await t.database.db.select().from(tenants).where(eq(tenants.type, '1'));
  await t.database.db.insert(tenants).values([
    {
      tenantId: tenantA,
      parentTenantId: defined(platform).tenantId,
      name: 'A',
      type: '2',
      info: { domain: `a${suffix}.test` },
    },
    {
      tenantId: tenantB,
      parentTenantId: defined(platform).tenantId,
      name: 'B',
      type: '2',
      info: { domain: `b${suffix}.test` },
    },
  ]);
  // Signing in to a partner or client tenant needs an active subscription.
  await t.database.db.insert(subscriptions).values(
    [tenantA, tenantB].map((tenantId) => ({
      tenantId,
      code: 'omnirag',
      info: { code: 'omnirag', name: 'Omni RAG' },
    })),
  );
  const alicePassword = await registerVerified(t, `alice@a${suffix}.test`);
  const bobPassword = await registerVerified(t, `bob@b${suffix}.test`);
  const alice = await sessionCookie(t, `alice@a${suffix}.test`, alicePassword);
  const bob = await sessionCookie(t, `bob@b${suffix}.test`, bobPassword);
  const s3 = store ? await openS3TestDriver(store.settings) : null;

  return {
    t,
    dataDir,
    root,
    tenantA,
    tenantB,
    domainA: `a${suffix}.test`,
    domainB: `b${suffix}.test`,
    alice,
    bob,
    async storedKeys() {
      if (s3) {
        const keys: string[] = [];
        for (const tenant of [tenantA, tenantB]) {
          for await (const object of s3.list(tenantPrefix(tenant))) keys.push(object.key);
        }
        return keys.sort();
      }
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
        .sort();
    },
    async close() {
      if (s3) {
        for (const tenant of [tenantA, tenantB]) await s3.deletePrefix(tenantPrefix(tenant));
        s3.close();
      }
      await t.close();
      await store?.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

/** Makes a user an agent (read-only on files). */
export async function makeAgent(t: TestApp, email: string) {
  await t.database.db.update(users).set({ role: 'agent' }).where(eq(users.email, email));
}

export const encodeMetadata = (metadata: Record<string, string>) =>
  Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

/** A whole tus upload through app.inject (POST, then one PATCH); answers the stored path. */
export async function injectUpload(
  t: TestApp,
  cookie: string,
  name: string,
  bytes: Buffer,
  folder = '',
): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: FILES_UPLOAD_PATH,
    headers: {
      cookie,
      'tus-resumable': '1.0.0',
      'upload-length': String(bytes.length),
      'upload-metadata': encodeMetadata({ filename: name, folder }),
    },
  });
  if (created.statusCode !== 201) throw new Error(`create failed: ${created.statusCode} ${created.body}`);
  const patched = await t.app.inject({
    method: 'PATCH',
    url: defined(created.headers.location),
    headers: {
      cookie,
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    payload: bytes,
  });
  if (patched.statusCode !== 204) throw new Error(`patch failed: ${patched.statusCode} ${patched.body}`);
  return decodeURIComponent(String(patched.headers[UPLOAD_FILE_PATH_HEADER]));
}

/** Gives a tenant an API credential; answers its `Authorization: Basic` header value. */
export async function basicCredential(t: TestApp, tenantId: string): Promise<string> {
  const key = `files${tenantId.replaceAll('-', '')}`.slice(0, 24);
  const secret = `secret-${tenantId}-0123456789abcdefghijklmnop`;
  const { secret: serverSecret } = await t.app.auth.$context;
  await t.database.db.insert(credentials).values({
    tenantId,
    key,
    secretHash: hashCredentialSecret(serverSecret, secret),
    secretLast4: secret.slice(-4),
  });
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}
