import { CONVERSATION_STATES, LiveMessageSchema } from '@omnibot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { appendMessage, inboxApi, inboxKeys, refreshInbox } from './inbox-api';

/** A null conversation means the server may have lost track of changes: everything is read again. */
const ChangedEventSchema = z.union([
  z.object({ conversationId: z.string(), state: z.enum(CONVERSATION_STATES) }),
  z.object({ conversationId: z.null(), state: z.null() }),
]);
const MessageEventSchema = z.object({ conversationId: z.string(), message: LiveMessageSchema });
const TypingEventSchema = z.object({ conversationId: z.string() });
const SummaryEventSchema = z.object({ conversationId: z.string() });

/** An event's JSON data checked against `schema`; null for anything else, which is then ignored. */
function dataOf<T>(event: Event, schema: z.ZodType<T>): T | null {
  if (!(event instanceof MessageEvent) || typeof event.data !== 'string') return null;
  try {
    const parsed = schema.safeParse(JSON.parse(event.data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

interface InboxEventHandlers {
  /** A conversation started waiting for a person. */
  onQueued?: (conversationId: string) => void;
  /** The visitor of a conversation is typing. */
  onTyping?: (conversationId: string) => void;
}

/**
 * Keeps the inbox current from its Server-Sent Events while mounted: `changed` refetches the list (and the open
 * transcript when it is that conversation), `message` joins the cached transcript once and refreshes the list, and a
 * reconnection after an error (or a `changed` naming no conversation) refetches everything, since events were lost.
 */
export function useInboxEvents(openId: string | null, handlers: InboxEventHandlers = {}): void {
  const queryClient = useQueryClient();
  // Read at event time, so a new selection or handler does not reconnect the stream.
  const openIdRef = useRef(openId);
  const handlersRef = useRef(handlers);
  useEffect(() => {
    openIdRef.current = openId;
    handlersRef.current = handlers;
  });

  useEffect(() => {
    const source = new EventSource(inboxApi.eventsUrl, { withCredentials: false });
    let failed = false;

    source.addEventListener('error', () => {
      failed = true;
    });
    source.addEventListener('open', () => {
      if (!failed) return;
      failed = false;
      void queryClient.invalidateQueries({ queryKey: inboxKeys.all });
    });
    source.addEventListener('changed', (event) => {
      const data = dataOf(event, ChangedEventSchema);
      if (!data) return;
      if (data.conversationId === null) {
        void queryClient.invalidateQueries({ queryKey: inboxKeys.all });
        return;
      }
      const isOpen = data.conversationId === openIdRef.current;
      void refreshInbox(queryClient, isOpen ? data.conversationId : undefined);
      if (data.state === 'queued') handlersRef.current.onQueued?.(data.conversationId);
    });
    source.addEventListener('message', (event) => {
      const data = dataOf(event, MessageEventSchema);
      if (!data) return;
      appendMessage(queryClient, data.conversationId, data.message);
      void queryClient.invalidateQueries({ queryKey: inboxKeys.list() });
    });
    source.addEventListener('summary', (event) => {
      const data = dataOf(event, SummaryEventSchema);
      if (data) void queryClient.invalidateQueries({ queryKey: inboxKeys.transcript(data.conversationId) });
    });
    source.addEventListener('typing', (event) => {
      const data = dataOf(event, TypingEventSchema);
      if (data) handlersRef.current.onTyping?.(data.conversationId);
    });
    return () => source.close();
  }, [queryClient]);
}
