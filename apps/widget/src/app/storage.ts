import {
  SAVED_CHAT_MAX,
  storageWarning,
  type ConversationState,
  type IntentSource,
} from '@omnibot/contracts';
import type { ChatMessage } from './chat-types';

/** A conversation that went to a person: where it stood and the last event of its stream already shown. */
export interface SavedLive {
  state: ConversationState;
  /** The person answering, by name. */
  agent: string | null;
  lastEventId: string | null;
}

/**
 * What survives a page load when the bot keeps conversations: in the host page's sessionStorage through the loader,
 * or in the frame's own when it is opened on its own.
 */
interface SavedChat {
  conversationToken?: string;
  language?: string;
  messages: ChatMessage[];
  live?: SavedLive | null;
}

const STORAGE_MAX_MESSAGES = 200;
const keyOf = (botId: string) => `omnibot:chat:${botId}`;

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);
const ROLES: readonly ChatMessage['role'][] = ['user', 'bot', 'agent', 'system'];
const STATES: readonly ConversationState[] = ['bot', 'queued', 'agent', 'closed'];

function liveOf(value: unknown): SavedLive | undefined {
  const { state, agent, lastEventId } = fieldsOf(value);
  if (!STATES.includes(state as ConversationState)) return undefined;
  return {
    state: state as ConversationState,
    agent: typeof agent === 'string' ? agent : null,
    lastEventId: typeof lastEventId === 'string' && /^\d+$/.test(lastEventId) ? lastEventId : null,
  };
}

function sourceOf(value: unknown): IntentSource | null {
  const { n, title, url } = fieldsOf(value);
  if (typeof n !== 'number' || typeof title !== 'string') return null;
  return { n, title, url: typeof url === 'string' ? url : null };
}

function originalOf(value: unknown): ChatMessage['original'] {
  const { text, language } = fieldsOf(value);
  return typeof text === 'string' && typeof language === 'string' ? { text, language } : undefined;
}

function messageOf(value: unknown): ChatMessage | null {
  const fields = fieldsOf(value);
  const { key, role, text, status } = fields;
  if (typeof key !== 'string' || typeof text !== 'string' || !ROLES.includes(role as ChatMessage['role']))
    return null;
  if (status !== 'sent' && status !== 'failed' && status !== 'notice' && status !== 'sending') return null;
  const feedback = fields.feedback;
  return {
    key,
    id: optionalString(fields.id),
    role: role as ChatMessage['role'],
    author: optionalString(fields.author),
    text,
    original: originalOf(fields.original),
    // A message still on its way when the page went away is shown as failed, so the visitor can retry it.
    status: status === 'sending' ? 'failed' : status,
    error: status === 'sending' ? 'Not sent: the page was reloaded.' : optionalString(fields.error),
    sources: (Array.isArray(fields.sources) ? (fields.sources as unknown[]) : [])
      .map(sourceOf)
      .filter((source): source is IntentSource => source !== null),
    handoverOffered: fields.handoverOffered === true,
    feedback:
      feedback === 'button1' || feedback === 'button2' || feedback === 'button3' ? feedback : undefined,
  };
}

/** A saved conversation read back from its JSON text; null when there is none or it is not one. */
export function readSavedChat(raw: string | null | undefined): SavedChat | null {
  if (raw === null || raw === undefined) return null;
  try {
    const fields = fieldsOf(JSON.parse(raw));
    return {
      conversationToken: optionalString(fields.conversationToken),
      language: optionalString(fields.language),
      messages: (Array.isArray(fields.messages) ? (fields.messages as unknown[]) : [])
        .map(messageOf)
        .filter((message): message is ChatMessage => message !== null),
      live: liveOf(fields.live),
    };
  } catch {
    return null;
  }
}

/**
 * The JSON text that keeps a conversation for the next page load: the last STORAGE_MAX_MESSAGES finished messages,
 * fewer when that is longer than SAVED_CHAT_MAX characters (the oldest go first).
 */
export function savedChatText(chat: SavedChat): string {
  let messages = chat.messages
    .filter((message) => message.status !== 'streaming')
    .slice(-STORAGE_MAX_MESSAGES);
  let text = JSON.stringify({ ...chat, messages });
  while (text.length > SAVED_CHAT_MAX && messages.length > 0) {
    messages = messages.slice(Math.ceil(messages.length / 4));
    text = JSON.stringify({ ...chat, messages });
  }
  return text;
}

let storageWarned = false;
// A refused or full storage is said once in the console, never silently: the conversation then lasts as long as
// the page.
function warnStorage(error: unknown) {
  if (storageWarned) return;
  storageWarned = true;
  console.warn(storageWarning((error as Error).message));
}

/** The saved conversation of this bot in this tab, or null when there is none or it cannot be read. */
export function loadChat(storage: Storage | null, botId: string): SavedChat | null {
  try {
    return readSavedChat(storage?.getItem(keyOf(botId)));
  } catch (error) {
    warnStorage(error);
    return null;
  }
}

/** Keeps the conversation for the next page load in this tab; a full or blocked storage is said in the console. */
export function saveChat(storage: Storage | null, botId: string, chat: SavedChat): void {
  try {
    storage?.setItem(keyOf(botId), savedChatText(chat));
  } catch (error) {
    warnStorage(error);
  }
}

/** The tab's sessionStorage, or null where the browser refuses access to it (said once in the console). */
export function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch (error) {
    warnStorage(error);
    return null;
  }
}
