import type { PreviousUpload, UrlStorage } from 'tus-js-client';

const PREFIX = 'tus::';

/**
 * tus-js-client's URL storage over localStorage, in its own key format (`tus::<fingerprint>::<n>`), made here
 * so every build (and the tests) use the same one: an unfinished upload's URL survives a reload.
 */
export function localUrlStorage(storage: () => Storage = () => window.localStorage): UrlStorage {
  const entries = (prefix: string): PreviousUpload[] => {
    const found: PreviousUpload[] = [];
    const store = storage();
    for (let index = 0; index < store.length; index += 1) {
      const key = store.key(index);
      if (!key?.startsWith(prefix)) continue;
      try {
        found.push({ ...(JSON.parse(store.getItem(key) ?? '') as PreviousUpload), urlStorageKey: key });
      } catch {
        // A damaged entry must not stop an upload.
      }
    }
    return found;
  };
  return {
    findAllUploads: () => Promise.resolve(entries(PREFIX)),
    findUploadsByFingerprint: (fingerprint) => Promise.resolve(entries(`${PREFIX}${fingerprint}::`)),
    removeUpload: (urlStorageKey) => {
      storage().removeItem(urlStorageKey);
      return Promise.resolve();
    },
    addUpload: (fingerprint, upload) => {
      const key = `${PREFIX}${fingerprint}::${Math.round(Math.random() * 1e12)}`;
      storage().setItem(key, JSON.stringify(upload));
      return Promise.resolve(key);
    },
  };
}

/** The console's upload URL storage. */
export const uploadUrlStorage = localUrlStorage();
