import { FolderItemSchema, type CreateFolderBody } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { filesKeys } from '../../../lib/files/files-api';

/** Creates a folder (and any missing parents); 409 storage/already-exists when the name is taken. */
const createFolder = (body: CreateFolderBody) =>
  api.post('/v1/files/folders', body, { schema: FolderItemSchema });

export const useCreateFolder = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFolder,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesKeys.all }),
  });
};
