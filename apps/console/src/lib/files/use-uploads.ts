import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import { filesKeys } from './files-api';
import { createTusTransport } from './tus-transport';
import { createUploadStore, type UploadStore } from './upload-store';
import type { UploadItem } from './upload-queue';

let appStore: UploadStore | null = null;

/** The console's one upload queue: uploads carry on while the user moves between pages. */
function getAppUploadStore(): UploadStore {
  appStore ??= createUploadStore({ transport: createTusTransport() });
  return appStore;
}

/** Tests provide their own store (with a fake transport); the app uses the shared one. */
export const UploadStoreContext = createContext<UploadStore | null>(null);

export function useUploadStore(): UploadStore {
  return useContext(UploadStoreContext) ?? getAppUploadStore();
}

export function useUploads(): UploadItem[] {
  const store = useUploadStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}

/** Calls `listener` for every finished upload while the calling component is mounted. */
export function useOnUploaded(listener: (item: UploadItem) => void) {
  const store = useUploadStore();
  useEffect(() => store.onUploaded(listener), [store, listener]);
}

/** Refreshes listings and the storage usage whenever an upload finishes. */
export function useRefreshFilesOnUpload() {
  const queryClient = useQueryClient();
  const store = useUploadStore();
  useEffect(
    () => store.onUploaded(() => void queryClient.invalidateQueries({ queryKey: filesKeys.all })),
    [store, queryClient],
  );
}
