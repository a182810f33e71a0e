import type { ConversationState, ConversationStatus, LiveMessage } from '@omnibot/contracts';
import {
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  type Dispatch,
  type RefObject,
  type SetStateAction,
} from 'react';
import { ApiError, postHandover, postVisitorTyping } from './api';
import type { ChatMessage } from './chat-types';
import { openLiveStream, type LiveStreamEvent } from './live-stream';
import { agentJoinedText, BACK_TO_BOT_TEXT, ENDED_TEXT } from './live-texts';
import type { SavedLive } from './storage';

/** How long an agent's typing is shown without a word from them. */
const TYPING_SHOWN_MS = 6000;
/** The visitor's typing is told at most this often. */
const TYPING_SENT_EVERY_MS = 3000;

const ROLE_OF: Record<LiveMessage['role'], ChatMessage['role']> = {
  visitor: 'user',
  bot: 'bot',
  agent: 'agent',
  system: 'system',
};

/**
 * The conversation with a message of its live stream added, unless it shows it already: by message id, or (a
 * visitor message whose answer is still on its way) by its text.
 */
export function withLiveMessage(list: ChatMessage[], message: LiveMessage): ChatMessage[] {
  if (list.some((shown) => shown.id === message.id)) return list;
  if (message.role === 'visitor') {
    const sending = list.find(
      (shown) =>
        shown.role === 'user' &&
        shown.id === undefined &&
        shown.status === 'sending' &&
        shown.text === message.text,
    );
    if (sending !== undefined)
      return list.map((shown) => (shown === sending ? { ...shown, id: message.id } : shown));
  }
  return [
    ...list,
    {
      key: `live:${message.id}`,
      id: message.id,
      role: ROLE_OF[message.role],
      // A person's message the bot translated is shown in the visitor's language, its original a click away.
      ...(message.role === 'agent' && message.translation !== undefined
        ? {
            text: message.translation.text,
            original: { text: message.text, language: message.language ?? '' },
          }
        : { text: message.text }),
      status: 'sent',
      sources: [],
      ...(message.role === 'agent' && message.author !== null ? { author: message.author } : {}),
    },
  ];
}

/** What the hand-over asked for came to: a person will answer, the bot has none, the conversation ended, or failed. */
/** How asking for a person ended; out of business hours with the text the bot says then. */
export type HandoverOutcome = 'live' | 'not-offered' | 'closed' | 'failed' | { outOfHours: string };

interface LiveConversationOptions {
  apiBase: string;
  botId: string;
  language: string;
  token: RefObject<string | undefined>;
  /** The kept live state (use-chat-state.ts). */
  live: SavedLive | null;
  setLive: Dispatch<SetStateAction<SavedLive | null>>;
  setMessages: Dispatch<SetStateAction<ChatMessage[]>>;
  newKey: () => string;
}

interface Timeline {
  state: ConversationState;
  agent: string | null;
}

/**
 * The conversation with a person: asks for one, follows the conversation's event stream from the last event shown
 * (across reloads, through the kept live state) until it ends, and shows its messages. A person joining, handing
 * back to the bot or the conversation ending is said in the conversation: by the server's system message just
 * before the change, else by a line of the widget's own. Only stored events move the conversation on, so a stream
 * opened again (which starts with the current status) or a reply's status never says a change twice.
 */
export function useLiveConversation({
  apiBase,
  botId,
  language,
  token,
  live,
  setLive,
  setMessages,
  newKey,
}: LiveConversationOptions) {
  const [status, setStatus] = useState<ConversationStatus | null>(() =>
    live === null
      ? null
      : { state: live.state, position: null, agent: live.agent === null ? null : { name: live.agent } },
  );
  const [typing, setTyping] = useState<{ name: string | null } | null>(null);
  const timeline = useRef<Timeline>({ state: live?.state ?? 'bot', agent: live?.agent ?? null });
  const lastEventId = useRef(live?.lastEventId ?? null);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const typingSent = useRef(0);
  // The last stored message was the server's system message, which announces the change of state after it.
  const announced = useRef(false);
  const following = live !== null && live.state !== 'closed';

  const say = (text: string) =>
    setMessages((list) => [...list, { key: newKey(), role: 'system', text, status: 'notice', sources: [] }]);

  const stopTyping = () => {
    clearTimeout(typingTimer.current);
    setTyping(null);
  };

  /** Moves the conversation on to `next` (a stored event), saying what changed unless the server said it. */
  const advance = (next: Timeline, id: string | undefined) => {
    const previous = timeline.current;
    const silent = announced.current;
    timeline.current = next;
    announced.current = false;
    if (next.state === 'closed' && previous.state !== 'closed') stopTyping();
    if (!silent) {
      if (next.state === 'agent' && (previous.state !== 'agent' || previous.agent !== next.agent))
        say(agentJoinedText(next.agent));
      else if (next.state === 'bot' && (previous.state === 'queued' || previous.state === 'agent'))
        say(BACK_TO_BOT_TEXT);
      else if (next.state === 'closed' && previous.state !== 'closed') say(ENDED_TEXT);
    }
    if (id !== undefined) lastEventId.current = id;
    setLive((now) => ({ ...next, lastEventId: id ?? now?.lastEventId ?? null }));
  };

  /** Shows a status that is not a stored event (an answer's), and follows the conversation's events from now on. */
  const show = (next: ConversationStatus) => {
    setStatus(next);
    setLive((now) => now ?? { ...timeline.current, lastEventId: lastEventId.current });
  };

  const seen = (id: string | undefined) => {
    if (id === undefined) return;
    lastEventId.current = id;
    setLive((now) => (now === null ? null : { ...now, lastEventId: id }));
  };

  const onStreamEvent = useEffectEvent((event: LiveStreamEvent) => {
    if (event.type === 'status') {
      setStatus(event.status);
      if (event.id === undefined) return;
      advance({ state: event.status.state, agent: event.status.agent?.name ?? null }, event.id);
    } else if (event.type === 'message') {
      if (event.message.role === 'agent') stopTyping();
      setMessages((list) => withLiveMessage(list, event.message));
      announced.current = event.message.role === 'system';
      seen(event.id);
    } else if (event.type === 'typing') {
      clearTimeout(typingTimer.current);
      setTyping({ name: event.name });
      typingTimer.current = setTimeout(() => setTyping(null), TYPING_SHOWN_MS);
    } else {
      setStatus({ state: 'closed', position: null, agent: null });
      advance({ state: 'closed', agent: null }, event.id);
    }
  });

  useEffect(() => {
    const conversationToken = token.current;
    if (!following || conversationToken === undefined) return;
    const stream = openLiveStream({
      apiBase,
      botId,
      conversationToken,
      ...(lastEventId.current === null ? {} : { after: lastEventId.current }),
      onEvent: (event) => onStreamEvent(event),
    });
    return () => stream.close();
  }, [following, apiBase, botId, token]);

  useEffect(() => () => clearTimeout(typingTimer.current), []);

  /** Asks for a person to answer this conversation (it must have one). */
  const requestHandover = async (): Promise<HandoverOutcome> => {
    const conversationToken = token.current;
    if (conversationToken === undefined) return 'failed';
    try {
      show(await postHandover(apiBase, { botId, conversationToken, language }));
      return 'live';
    } catch (error) {
      if (error instanceof ApiError && error.code === 'handover/not-offered') return 'not-offered';
      if (error instanceof ApiError && error.code === 'handover/out-of-hours')
        return { outOfHours: error.message };
      if (error instanceof ApiError && error.code === 'handover/closed') return 'closed';
      return 'failed';
    }
  };

  /** The conversation is over for the widget: the next message starts a new one, with no live state. */
  const forget = () => {
    timeline.current = { state: 'bot', agent: null };
    lastEventId.current = null;
    announced.current = false;
    setLive(null);
    setStatus(null);
    stopTyping();
  };

  /** The visitor types: the person answering is told, at most every few seconds. */
  const visitorTyping = () => {
    const conversationToken = token.current;
    if (status?.state !== 'agent' || conversationToken === undefined) return;
    const now = Date.now();
    if (now - typingSent.current < TYPING_SENT_EVERY_MS) return;
    typingSent.current = now;
    postVisitorTyping(apiBase, { botId, conversationToken }).catch(() => undefined);
  };

  return { status, typing, requestHandover, show, forget, visitorTyping };
}
