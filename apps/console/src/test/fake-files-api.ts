import type { FileItem, FolderItem } from '@omnibot/contracts';
import { extensionOf } from '@omnibot/contracts';
import { vi } from 'vitest';
import { defined } from './defined';

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const baseNameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** A file of the fake store, as the listing presents it (the URL is a stand-in signed link). */
export function fakeFile(path: string, size = 1000): FileItem {
  return {
    name: baseNameOf(path),
    path,
    url: `/v1/files/download?path=${encodeURIComponent(path)}&expires=1767225600&signature=s`,
    type: extensionOf(path),
    size,
    content_type: 'application/octet-stream',
    created_at: '2026-01-01T10:00:00.000Z',
  };
}

export interface FakeFilesApi {
  folders: Set<string>;
  files: Map<string, FileItem>;
  calls: string[];
  addFile(path: string, size?: number): void;
}

/**
 * Stubs `fetch` with an in-memory /v1/files: listing (one page), usage, object, folders create/delete,
 * rename, move and delete. Every call is recorded as "METHOD /path?query".
 */
export function stubFilesApi({ folders = [] as string[], files = [] as string[] } = {}): FakeFilesApi {
  const api: FakeFilesApi = {
    folders: new Set(folders),
    files: new Map(files.map((path) => [path, fakeFile(path)])),
    calls: [],
    addFile(path, size) {
      api.files.set(path, fakeFile(path, size));
    },
  };
  const folderItem = (path: string): FolderItem => ({ name: baseNameOf(path), path, isFolder: true });
  const notFound = () =>
    json(404, { code: 'storage/object-not-found', message: 'No folder exists at this path.' });

  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        'http://localhost',
      );
      const method = init?.method ?? 'GET';
      api.calls.push(`${method} ${url.pathname}${url.search}`);
      const query = url.searchParams;
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, string>) : {};
      const key = `${method} ${url.pathname}`;
      if (key === 'GET /v1/files') {
        const path = query.get('path') ?? '';
        if (path !== '' && !api.folders.has(path)) return Promise.resolve(notFound());
        const prefixes = [...api.folders]
          .filter((f) => parentOf(f) === path)
          .sort()
          .map(folderItem);
        const items = [...api.files.values()]
          .filter((f) => parentOf(f.path) === path)
          .sort((a, b) => a.name.localeCompare(b.name));
        const limit = Number(query.get('page_size') ?? 100);
        return Promise.resolve(
          json(200, {
            items: items.slice(0, Math.max(0, limit - prefixes.length)),
            prefixes: prefixes.slice(0, limit),
            next_cursor: null,
          }),
        );
      }
      if (key === 'GET /v1/files/usage') {
        const used = [...api.files.values()].reduce((sum, f) => sum + f.size, 0);
        return Promise.resolve(
          json(200, { used_bytes: used, quota_bytes: 1_073_741_824, max_file_bytes: 104_857_600 }),
        );
      }
      if (key === 'GET /v1/files/object') {
        const file = api.files.get(query.get('path') ?? '');
        return Promise.resolve(file ? json(200, file) : notFound());
      }
      if (key === 'POST /v1/files/folders') {
        const path = defined(body.path);
        if (api.folders.has(path) || api.files.has(path)) {
          return Promise.resolve(
            json(409, {
              code: 'storage/already-exists',
              message: 'A file or folder with this name already exists.',
            }),
          );
        }
        api.folders.add(path);
        return Promise.resolve(json(201, folderItem(path)));
      }
      if (key === 'DELETE /v1/files/folders') {
        const path = defined(query.get('path'));
        const inside = (p: string) => p.startsWith(`${path}/`);
        const hasContents = [...api.folders].some(inside) || [...api.files.keys()].some(inside);
        if (hasContents && query.get('recursive') !== 'true') {
          return Promise.resolve(
            json(409, { code: 'storage/folder-not-empty', message: 'The folder is not empty.' }),
          );
        }
        for (const f of [...api.folders]) if (f === path || inside(f)) api.folders.delete(f);
        for (const f of [...api.files.keys()]) if (inside(f)) api.files.delete(f);
        return Promise.resolve(json(204, null));
      }
      if (key === 'DELETE /v1/files') {
        return Promise.resolve(api.files.delete(query.get('path') ?? '') ? json(204, null) : notFound());
      }
      if (key === 'PATCH /v1/files') {
        const file = api.files.get(defined(body.path));
        if (!file) return Promise.resolve(notFound());
        const to = parentOf(file.path) ? `${parentOf(file.path)}/${body.name}` : defined(body.name);
        api.files.delete(file.path);
        api.addFile(to, file.size);
        return Promise.resolve(json(200, api.files.get(to)));
      }
      if (key === 'POST /v1/files/move') {
        const file = api.files.get(defined(body.path));
        if (!file) return Promise.resolve(notFound());
        const to = body.folder ? `${body.folder}/${file.name}` : file.name;
        api.files.delete(file.path);
        api.addFile(to, file.size);
        return Promise.resolve(json(200, api.files.get(to)));
      }
      return Promise.resolve(json(404, { code: 'not_found', message: `No fake for ${key}` }));
    }),
  );
  return api;
}
