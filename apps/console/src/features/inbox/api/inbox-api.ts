import {
  type AgentMessageBody,
  AgentPreferencesSchema,
  type UpdateAgentPreferencesBody,
  InboxConversationSchema,
  InboxListSchema,
  type InboxConversation,
  InboxSummarySchema,
  InboxTranscriptSchema,
  type InboxTranscript,
  type LiveMessage,
  LiveMessageSchema,
} from '@omnibot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every inbox query key, so an event or a change refreshes exactly what it touched. */
export const inboxKeys = {
  all: ['inbox'] as const,
  summary: () => [...inboxKeys.all, 'summary'] as const,
  list: () => [...inboxKeys.all, 'list'] as const,
  transcript: (id: string) => [...inboxKeys.all, 'transcript', id] as const,
  preferences: () => [...inboxKeys.all, 'preferences'] as const,
};

const base = '/v1/inbox';
const of = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const inboxApi = {
  summary: (signal?: AbortSignal) => api.get(`${base}/summary`, { schema: InboxSummarySchema, signal }),
  preferences: (signal?: AbortSignal) =>
    api.get(`${base}/preferences`, { schema: AgentPreferencesSchema, signal }),
  savePreferences: (body: UpdateAgentPreferencesBody) =>
    api.put(`${base}/preferences`, body, { schema: AgentPreferencesSchema }),
  list: (signal?: AbortSignal) => api.get(base, { schema: InboxListSchema, signal }),
  transcript: (id: string, signal?: AbortSignal) =>
    api.get(of(id), { schema: InboxTranscriptSchema, signal }),
  claim: (id: string) => api.post(`${of(id)}/claim`, undefined, { schema: InboxConversationSchema }),
  send: (id: string, body: AgentMessageBody) =>
    api.post(`${of(id)}/messages`, body, { schema: LiveMessageSchema }),
  typing: (id: string) => api.post<undefined>(`${of(id)}/typing`),
  release: (id: string) => api.post(`${of(id)}/release`, undefined, { schema: InboxConversationSchema }),
  close: (id: string) => api.post(`${of(id)}/close`, undefined, { schema: InboxConversationSchema }),
  /** The inbox's Server-Sent Events, same origin, with the session cookie. */
  eventsUrl: `${base}/events`,
};

/** How often the shell asks again whether the organisation has live agents, so the Inbox entry follows a bot's change. */
const SUMMARY_REFRESH_MS = 60_000;

export const getInboxSummaryQueryOptions = () =>
  queryOptions({
    queryKey: inboxKeys.summary(),
    queryFn: ({ signal }) => inboxApi.summary(signal),
    refetchInterval: SUMMARY_REFRESH_MS,
  });

/** Whether the organisation hands over to the inbox, how many wait and how many the caller answers. */
export const useInboxSummary = () => useQuery(getInboxSummaryQueryOptions());

/** Queued conversations (oldest first), then those a person answers. */
export const useInboxList = () =>
  useQuery({ queryKey: inboxKeys.list(), queryFn: ({ signal }) => inboxApi.list(signal) });

/** One conversation with its whole transcript; nothing is asked while no conversation is open. */
export const useInboxTranscript = (id: string | null) =>
  useQuery({
    queryKey: inboxKeys.transcript(id ?? ''),
    queryFn: ({ signal }) => inboxApi.transcript(id ?? '', signal),
    enabled: id !== null,
  });

/** Adds `message` to a transcript in the cache unless it is there already (an event and a reply may both bring it). */
export function appendMessage(queryClient: QueryClient, conversationId: string, message: LiveMessage): void {
  queryClient.setQueryData<InboxTranscript>(inboxKeys.transcript(conversationId), (transcript) =>
    transcript && !transcript.messages.some((known) => known.id === message.id)
      ? { ...transcript, messages: [...transcript.messages, message] }
      : transcript,
  );
}

/** Refetches the list, the summary and, when given, one transcript. */
export async function refreshInbox(queryClient: QueryClient, conversationId?: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: inboxKeys.list() }),
    queryClient.invalidateQueries({ queryKey: inboxKeys.summary() }),
    ...(conversationId === undefined
      ? []
      : [queryClient.invalidateQueries({ queryKey: inboxKeys.transcript(conversationId) })]),
  ]);
}

/**
 * Claim, hand back or close: whether it went through or another agent got there first, the list and the
 * conversation are loaded again, so the screen shows where it stands now.
 */
function useStateChange(change: (id: string) => Promise<InboxConversation>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: (_data, _error, id) => refreshInbox(queryClient, id),
  });
}

export const useClaimConversation = () => useStateChange(inboxApi.claim);
export const useReleaseConversation = () => useStateChange(inboxApi.release);
export const useCloseConversation = () => useStateChange(inboxApi.close);

/**
 * Sends the agent's message; it joins the transcript at once and the list shows it as the last message. A refusal
 * (the conversation is no longer the caller's) loads the conversation again.
 */
export function useSendAgentMessage(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AgentMessageBody) => inboxApi.send(conversationId, body),
    onSuccess: async (message) => {
      appendMessage(queryClient, conversationId, message);
      await queryClient.invalidateQueries({ queryKey: inboxKeys.list() });
    },
    onError: () => refreshInbox(queryClient, conversationId),
  });
}

/** The signed-in person's inbox preferences: the language visitors' messages are translated into for them. */
export const useAgentPreferences = () =>
  useQuery({ queryKey: inboxKeys.preferences(), queryFn: ({ signal }) => inboxApi.preferences(signal) });

/** Saves the person's language; the next translated messages come in it. */
export function useUpdateAgentPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inboxApi.savePreferences,
    onSuccess: (saved) => queryClient.setQueryData(inboxKeys.preferences(), saved),
  });
}
