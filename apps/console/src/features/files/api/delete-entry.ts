import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { filesKeys } from '../../../lib/files/files-api';

const deleteFile = (path: string) => api.delete<undefined>('/v1/files', { query: { path } });

/** Without `recursive` a folder that holds anything answers 409 storage/folder-not-empty. */
const deleteFolder = (path: string, recursive: boolean) =>
  api.delete<undefined>('/v1/files/folders', { query: { path, recursive } });

export const useDeleteEntry = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      kind,
      path,
      recursive = false,
    }: {
      kind: 'file' | 'folder';
      path: string;
      recursive?: boolean;
    }) => (kind === 'file' ? deleteFile(path) : deleteFolder(path, recursive)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesKeys.all }),
  });
};
