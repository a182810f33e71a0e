import { FileItemSchema, FolderItemSchema, type RenameBody } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { filesKeys } from '../../../lib/files/files-api';

/** Renames a file inside its folder. */
const renameFile = (body: RenameBody) => api.patch('/v1/files', body, { schema: FileItemSchema });

/** Renames a folder; everything inside moves with it. */
const renameFolder = (body: RenameBody) => api.patch('/v1/files/folders', body, { schema: FolderItemSchema });

export const useRenameEntry = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      kind,
      ...body
    }: RenameBody & { kind: 'file' | 'folder' }): Promise<{ name: string; path: string }> =>
      kind === 'file' ? renameFile(body) : renameFolder(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesKeys.all }),
  });
};
