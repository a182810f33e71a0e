import {
  BotListSchema,
  BotSchema,
  type BotTemplate,
  BotTemplateListSchema,
  BotTemplateSchema,
  type CreateBotTemplateBody,
  type UpdateBotTemplateBody,
} from '@omnibot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const templateKeys = {
  all: ['bot-templates'] as const,
  list: () => [...templateKeys.all, 'list'] as const,
  /** The bots a template is saved from (the first 100, by name). */
  bots: () => [...templateKeys.all, 'bot-options'] as const,
};

const base = '/v1/bot-templates';
const of = (id: string) => `${base}/${encodeURIComponent(id)}`;

const templatesApi = {
  list: (signal?: AbortSignal) => api.get(base, { schema: BotTemplateListSchema, signal }),
  create: (body: CreateBotTemplateBody) => api.post(base, body, { schema: BotTemplateSchema }),
  update: (id: string, body: UpdateBotTemplateBody) => api.patch(of(id), body, { schema: BotTemplateSchema }),
  remove: (id: string) => api.delete<undefined>(of(id)),
  createBot: (id: string, name: string) => api.post(`${of(id)}/bots`, { name }, { schema: BotSchema }),
  bots: (signal?: AbortSignal) =>
    api.get('/v1/bots', { query: { page: 1, page_size: 100 }, schema: BotListSchema, signal }),
};

export const useBotTemplates = () =>
  useQuery({ queryKey: templateKeys.list(), queryFn: ({ signal }) => templatesApi.list(signal) });

export const useTemplateBotOptions = () =>
  useQuery({ queryKey: templateKeys.bots(), queryFn: ({ signal }) => templatesApi.bots(signal) });

function useListChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: templateKeys.list() });
}

export function useCreateBotTemplate() {
  const changed = useListChanged();
  return useMutation({ mutationFn: templatesApi.create, onSuccess: changed });
}

export function useUpdateBotTemplate() {
  const changed = useListChanged();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateBotTemplateBody }) => templatesApi.update(id, body),
    onSuccess: changed,
  });
}

export function useDeleteBotTemplate() {
  const changed = useListChanged();
  return useMutation({ mutationFn: templatesApi.remove, onSuccess: changed });
}

/** A new bot from a template; the bot pickers (and any bot list) learn of it. */
export function useCreateBotFromTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ template, name }: { template: BotTemplate; name: string }) =>
      templatesApi.createBot(template.id, name),
    onSuccess: () =>
      queryClient
        .invalidateQueries({ queryKey: ['bots'] })
        .then(() => queryClient.invalidateQueries({ queryKey: templateKeys.bots() })),
  });
}
