import { FileItemSchema, type MoveFileBody } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { filesKeys } from '../../../lib/files/files-api';

/** Moves a file into another folder; a taken name there gets a " (1)" suffix. */
const moveFile = (body: MoveFileBody) => api.post('/v1/files/move', body, { schema: FileItemSchema });

export const useMoveFile = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moveFile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesKeys.all }),
  });
};
