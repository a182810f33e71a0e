import { PROTOCOL_SOURCE, type FrameToHostMessage } from '@omnibot/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ChatMessage } from './chat-types';
import {
  loadChat,
  readSavedChat,
  saveChat,
  savedChatText,
  sessionStorageOrNull,
  type SavedLive,
} from './storage';

interface ChatStateOptions {
  botId: string;
  /** The embedding page's origin; null outside a frame. */
  hostOrigin: string | null;
  /** The conversation the loader kept in the host page's storage; null when there is none. */
  savedChat: string | null;
  /** Whether the conversation outlives the page (not in a preview, and the bot keeps it). */
  keeps: boolean;
  defaultLanguage: string;
  postToHost: (message: FrameToHostMessage) => void;
}

/**
 * The conversation: its messages, the visitor's language, the conversation token and, once it went to a person, its
 * live state, taken from where it was kept and kept again on each change.
 */
export function useChatState({
  botId,
  hostOrigin,
  savedChat,
  keeps,
  defaultLanguage,
  postToHost,
}: ChatStateOptions) {
  // Embedded, the loader keeps the conversation in the host page's storage (a cross-site frame has none of its
  // own); opened on its own, the frame keeps it in its sessionStorage.
  const storage = useMemo(
    () => (keeps && hostOrigin === null ? sessionStorageOrNull() : null),
    [keeps, hostOrigin],
  );
  const [saved] = useState(() =>
    !keeps ? null : hostOrigin === null ? loadChat(storage, botId) : readSavedChat(savedChat),
  );
  const stored = useRef(savedChat);
  const [messages, setMessages] = useState<ChatMessage[]>(() => saved?.messages ?? []);
  const [language, setLanguage] = useState(saved?.language ?? defaultLanguage);
  const token = useRef<string | undefined>(saved?.conversationToken);
  const [live, setLive] = useState<SavedLive | null>(saved?.live ?? null);

  const patch = useCallback(
    (key: string, change: Partial<ChatMessage>) =>
      setMessages((list) =>
        list.map((message) => (message.key === key ? { ...message, ...change } : message)),
      ),
    [],
  );

  useEffect(() => {
    if (!keeps) return;
    const chat = { conversationToken: token.current, language, messages, live };
    if (hostOrigin === null) {
      saveChat(storage, botId, chat);
      return;
    }
    const text = savedChatText(chat);
    // Streamed text changes nothing that is kept: only a changed conversation goes to the loader.
    if (text === stored.current || (stored.current === null && messages.length === 0)) return;
    stored.current = text;
    postToHost({ source: PROTOCOL_SOURCE, type: 'store', chat: text });
  }, [keeps, storage, hostOrigin, postToHost, botId, language, messages, live]);

  return { messages, setMessages, patch, language, setLanguage, token, live, setLive };
}
