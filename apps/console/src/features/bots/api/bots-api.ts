import {
  AvailableModelListSchema,
  type Bot,
  BotListSchema,
  type BotListQuery,
  BotImageSchema,
  BotOriginListSchema,
  BotSchema,
  type CreateBotBody,
  type ChatbotIntegrationEngine,
  type ContactCentreProvider,
  type DuplicateBotBody,
  IntegrationListSchema,
  PromptListSchema,
  RagListSchema,
  ScheduleListSchema,
  type UpdateBotBody,
  type BotService,
  IntegrationTestResultSchema,
} from '@omnibot/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every bot query key, so a change invalidates exactly what it touched. */
const botKeys = {
  all: ['bots'] as const,
  lists: () => [...botKeys.all, 'list'] as const,
  list: (query: BotListQuery) => [...botKeys.lists(), query] as const,
  detail: (id: string) => [...botKeys.all, 'detail', id] as const,
  origins: (id: string) => [...botKeys.detail(id), 'origins'] as const,
  /** What the engine settings offer to pick from: RAGs, prompts and chat models. */
  options: (kind: 'rags' | 'prompts' | 'chat-models' | 'schedules') =>
    [...botKeys.all, 'options', kind] as const,
  /** The contact-centre integrations of one provider a bot may hand over to. */
  contactCentres: (engine: ContactCentreProvider) =>
    [...botKeys.all, 'options', 'contact-centres', engine] as const,
  /** The chatbot-engine integrations of one engine a bot may answer with. */
  chatbotIntegrations: (engine: ChatbotIntegrationEngine) =>
    [...botKeys.all, 'options', 'chatbot-integrations', engine] as const,
};

/** The most rows one page of the API holds; the pickers list their options in one go. */
const ALL = { page: 1, page_size: 100 };

const base = '/v1/bots';
const of = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const botsApi = {
  list: (query: BotListQuery, signal?: AbortSignal) =>
    api.get(base, { query, schema: BotListSchema, signal }),
  get: (id: string, signal?: AbortSignal) => api.get(of(id), { schema: BotSchema, signal }),
  create: (body: CreateBotBody) => api.post(base, body, { schema: BotSchema }),
  update: (id: string, body: UpdateBotBody) => api.patch(of(id), body, { schema: BotSchema }),
  duplicate: (id: string, body: DuplicateBotBody) =>
    api.post(`${of(id)}/duplicate`, body, { schema: BotSchema }),
  remove: (id: string) => api.delete<undefined>(of(id)),
  /** A permanent link the widget may show for an image or sound of the organisation's storage. */
  image: (id: string, path: string) => api.post(`${of(id)}/images`, { path }, { schema: BotImageSchema }),
  testService: (id: string, service: BotService) =>
    api.post(`${of(id)}/services/test`, { service }, { schema: IntegrationTestResultSchema }),
  origins: (id: string, signal?: AbortSignal) =>
    api.get(`${of(id)}/origins`, { schema: BotOriginListSchema, signal }),
  rags: (signal?: AbortSignal) => api.get('/v1/rags', { query: ALL, schema: RagListSchema, signal }),
  prompts: (signal?: AbortSignal) => api.get('/v1/prompts', { query: ALL, schema: PromptListSchema, signal }),
  schedules: (signal?: AbortSignal) =>
    api.get('/v1/schedules', { query: ALL, schema: ScheduleListSchema, signal }),
  chatModels: (signal?: AbortSignal) =>
    api.get('/v1/models/available', { query: { kind: 'chat' }, schema: AvailableModelListSchema, signal }),
  contactCentres: (engine: ContactCentreProvider, signal?: AbortSignal) =>
    api.get('/v1/integrations', { query: { kind: 'ccaas', engine }, schema: IntegrationListSchema, signal }),
  chatbotIntegrations: (engine: ChatbotIntegrationEngine, signal?: AbortSignal) =>
    api.get('/v1/integrations', {
      query: { kind: 'chatbot', engine },
      schema: IntegrationListSchema,
      signal,
    }),
};

/** One page of the organisation's bots, by name. */
export const useBots = (query: BotListQuery) =>
  useQuery({
    queryKey: botKeys.list(query),
    queryFn: ({ signal }) => botsApi.list(query, signal),
    placeholderData: keepPreviousData,
  });

/** The bots a picker offers (the first 100, by name). */
export const useBotChoices = () => useBots(ALL);

export const useBot = (id: string) =>
  useQuery({ queryKey: botKeys.detail(id), queryFn: ({ signal }) => botsApi.get(id, signal) });

/** The origins that loaded the bot recently (most recent first). */
export const useBotOrigins = (id: string) =>
  useQuery({ queryKey: botKeys.origins(id), queryFn: ({ signal }) => botsApi.origins(id, signal) });

export const useRagOptions = (enabled = true) =>
  useQuery({ queryKey: botKeys.options('rags'), queryFn: ({ signal }) => botsApi.rags(signal), enabled });

export const usePromptOptions = () =>
  useQuery({ queryKey: botKeys.options('prompts'), queryFn: ({ signal }) => botsApi.prompts(signal) });

/** The business hours a bot's hand-over may follow. */
export const useScheduleOptions = () =>
  useQuery({ queryKey: botKeys.options('schedules'), queryFn: ({ signal }) => botsApi.schedules(signal) });

export const useChatModelOptions = () =>
  useQuery({ queryKey: botKeys.options('chat-models'), queryFn: ({ signal }) => botsApi.chatModels(signal) });

/** The organisation's contact-centre integrations of `engine` (none asked for while `engine` is null). */
export const useContactCentreOptions = (engine: ContactCentreProvider | null) =>
  useQuery({
    queryKey: botKeys.contactCentres(engine ?? 'genesys'),
    queryFn: ({ signal }) => botsApi.contactCentres(engine ?? 'genesys', signal),
    enabled: engine !== null,
  });

/** The organisation's chatbot-engine integrations of `engine` (none asked for while `engine` is null). */
export const useChatbotIntegrationOptions = (engine: ChatbotIntegrationEngine | null) =>
  useQuery({
    queryKey: botKeys.chatbotIntegrations(engine ?? 'dialogflowcx'),
    queryFn: ({ signal }) => botsApi.chatbotIntegrations(engine ?? 'dialogflowcx', signal),
    enabled: engine !== null,
  });

/** After a save the bot itself is known and every list may have changed. */
function useSaved() {
  const queryClient = useQueryClient();
  return async (bot: Bot) => {
    queryClient.setQueryData(botKeys.detail(bot.id), bot);
    await queryClient.invalidateQueries({ queryKey: botKeys.lists() });
  };
}

export function useCreateBot() {
  const saved = useSaved();
  return useMutation({ mutationFn: botsApi.create, onSuccess: saved });
}

export function useUpdateBot() {
  const saved = useSaved();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateBotBody }) => botsApi.update(id, body),
    onSuccess: saved,
  });
}

export function useDuplicateBot() {
  const saved = useSaved();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => botsApi.duplicate(id, { name }),
    onSuccess: saved,
  });
}

export function useDeleteBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: botsApi.remove,
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: botKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: botKeys.lists() });
    },
  });
}

/** "Test connection" of a bot's translator, server voice or geolocation service, with its saved settings. */
export function useTestBotService() {
  return useMutation({
    mutationFn: ({ id, service }: { id: string; service: BotService }) => botsApi.testService(id, service),
  });
}
