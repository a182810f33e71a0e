import { randomBytes } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertPrefix,
  objectNotFound,
  type ByteRange,
  type ObjectInfo,
  type ObjectStream,
  type StorageDriver,
} from './driver';
import { parseTenantKey, type ObjectKey } from './path';
import type { UrlSigner } from './url-signer';

const isMissing = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === 'ENOENT';

/** Objects as files under `<root>/<key>`; writes go to `<root>/.tmp` first and are renamed into place. */
export class LocalStorageDriver implements StorageDriver {
  readonly kind = 'local' as const;
  private readonly root: string;
  private readonly tmp: string;

  constructor(
    root: string,
    private readonly signer: UrlSigner,
  ) {
    this.root = path.resolve(root);
    this.tmp = path.join(this.root, '.tmp');
  }

  /** The file of a key; a second guard after the key functions, so no key resolves outside the root. */
  private file(key: ObjectKey): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(`${this.root}${path.sep}`) || key.startsWith('.tmp/')) {
      throw new Error(`storage key escapes the root: ${key}`);
    }
    return resolved;
  }

  private async tempFile(): Promise<string> {
    await fs.mkdir(this.tmp, { recursive: true });
    return path.join(this.tmp, randomBytes(12).toString('hex'));
  }

  private async placeFile(source: string, key: ObjectKey) {
    const target = this.file(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(source, target);
  }

  async put(key: ObjectKey, body: Readable | Buffer): Promise<number> {
    const temp = await this.tempFile();
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(temp));
      const { size } = await fs.stat(temp);
      await this.placeFile(temp, key);
      return size;
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  async importFile(localPath: string, key: ObjectKey): Promise<void> {
    try {
      await this.placeFile(localPath, key);
    } catch (error) {
      if ((error as { code?: string }).code !== 'EXDEV') throw error;
      // Another file system: copy, then remove the source.
      const temp = await this.tempFile();
      await fs.copyFile(localPath, temp);
      await this.placeFile(temp, key);
      await fs.rm(localPath, { force: true });
    }
  }

  async get(key: ObjectKey, range?: ByteRange): Promise<ObjectStream> {
    const file = this.file(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      if (isMissing(error) || (error as { code?: string }).code === 'EISDIR') throw objectNotFound();
      throw error;
    }
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      throw objectNotFound();
    }
    const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    return { stream, size: stats.size, ...(range ? { range } : {}) };
  }

  async stat(key: ObjectKey): Promise<ObjectInfo | null> {
    try {
      const stats = await fs.stat(this.file(key));
      return stats.isFile() ? { key, size: stats.size, modifiedAt: stats.mtime } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: ObjectKey): Promise<void> {
    const file = this.file(key);
    await fs.rm(file, { force: true });
    await this.pruneEmptyParents(path.dirname(file));
  }

  /** Empty folders live in the database; their directories would only get in a later file's way. */
  private async pruneEmptyParents(dir: string) {
    const stop = path.join(this.root, 'tenants');
    let current = dir;
    while (current.startsWith(`${stop}${path.sep}`) && path.dirname(current) !== stop) {
      try {
        await fs.rmdir(current);
      } catch {
        return;
      }
      current = path.dirname(current);
    }
  }

  async deletePrefix(prefix: ObjectKey): Promise<number> {
    assertPrefix(prefix);
    let count = 0;
    for await (const _object of this.list(prefix)) count += 1;
    await fs.rm(this.file(prefix), { recursive: true, force: true });
    await this.pruneEmptyParents(path.dirname(this.file(prefix)));
    return count;
  }

  async *list(prefix: ObjectKey): AsyncIterable<ObjectInfo> {
    assertPrefix(prefix);
    const base = this.file(prefix);
    let entries: string[];
    try {
      entries = await fs.readdir(base, { recursive: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const stats = await fs.stat(path.join(base, entry)).catch(() => null);
      if (!stats?.isFile()) continue;
      yield {
        key: `${prefix}${entry.split(path.sep).join('/')}` as ObjectKey,
        size: stats.size,
        modifiedAt: stats.mtime,
      };
    }
  }

  async copy(from: ObjectKey, to: ObjectKey): Promise<void> {
    const temp = await this.tempFile();
    try {
      await fs.copyFile(this.file(from), temp, constants.COPYFILE_FICLONE);
    } catch (error) {
      if (isMissing(error)) throw objectNotFound();
      throw error;
    }
    await this.placeFile(temp, to);
  }

  async move(from: ObjectKey, to: ObjectKey): Promise<void> {
    try {
      await this.placeFile(this.file(from), to);
    } catch (error) {
      if (isMissing(error)) throw objectNotFound();
      throw error;
    }
    await this.pruneEmptyParents(path.dirname(this.file(from)));
  }

  async movePrefix(from: ObjectKey, to: ObjectKey): Promise<void> {
    assertPrefix(from);
    assertPrefix(to);
    const source = this.file(from);
    const target = this.file(to);
    if (!(await fs.stat(source).catch(() => null))) return;
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.rename(source, target);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      // A directory is left at the target: move object by object.
      for await (const object of this.list(from)) {
        await this.move(object.key, `${to}${object.key.slice(from.length)}` as ObjectKey);
      }
      await fs.rm(source, { recursive: true, force: true });
    }
    await this.pruneEmptyParents(path.dirname(source));
  }

  async signedUrl(key: ObjectKey, options: { expiresAt: Date }): Promise<string> {
    const parsed = parseTenantKey(key);
    if (!parsed) throw new Error(`only tenant objects have download URLs: ${key}`);
    return this.signer.sign(parsed.tenantId, parsed.path, options.expiresAt);
  }

  /** For tests and the upload bench: where a key's bytes are. */
  pathOf(key: ObjectKey): string {
    return this.file(key);
  }

  close() {}
}
