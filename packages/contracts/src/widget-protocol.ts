// Without zod, so the widget's loader (budgeted in size) and chat parse messages without the schema library.
import { isLanguageCode } from './language-code';
import type { PublicWidgetConfig } from './widget-config';

/** Every message between the loader and the chat iframe carries this marker; anything without it is ignored. */
export const PROTOCOL_SOURCE = 'omnibot-widget';

/**
 * The longest text a visitor may send (typed, posted by the host page), have translated or have read aloud; the
 * server refuses longer with 413.
 */
export const VISITOR_TEXT_MAX = 4000;

/** The longest message text the iframe reports to the host page (bot answers may exceed a visitor's limit). */
export const EVENT_TEXT_MAX = 20_000;

/** What the loader and the chat say once in the console when the browser refuses them sessionStorage. */
export const storageWarning = (reason: string) =>
  `Omnibot: sessionStorage refused (${reason}); the conversation lasts until the page is left.`;

/** The longest saved conversation (JSON text) the frame hands the loader to keep across page loads. */
export const SAVED_CHAT_MAX = 1_000_000;

type LanguageCode = PublicWidgetConfig['language']['default_language'];

/** What the loader (host page) tells the chat iframe. */
export type HostToFrameMessage =
  | { source: typeof PROTOCOL_SOURCE; type: 'send'; text: string }
  | { source: typeof PROTOCOL_SOURCE; type: 'setLanguage'; language: LanguageCode }
  | { source: typeof PROTOCOL_SOURCE; type: 'opened' }
  /**
   * The answer to `hello`: the configuration the loader already holds and the conversation it kept for this bot in
   * the host page's storage (null when there is none), so the frame asks the server for neither.
   */
  | { source: typeof PROTOCOL_SOURCE; type: 'init'; config: PublicWidgetConfig; chat: string | null };

type ChatRole = 'user' | 'bot';

/** What the chat iframe tells the loader (host page). */
export type FrameToHostMessage =
  /** The frame's script runs and waits for `init`. */
  | { source: typeof PROTOCOL_SOURCE; type: 'hello' }
  /** The chat listens: messages the loader held back may be posted. */
  | { source: typeof PROTOCOL_SOURCE; type: 'ready' }
  /**
   * The conversation to keep for the next page load (its token included): a cross-site frame gets no storage of
   * its own, so the loader keeps it in the host page's.
   */
  | { source: typeof PROTOCOL_SOURCE; type: 'store'; chat: string }
  | { source: typeof PROTOCOL_SOURCE; type: 'close' }
  | { source: typeof PROTOCOL_SOURCE; type: 'message'; role: ChatRole; text: string }
  | { source: typeof PROTOCOL_SOURCE; type: 'handover' };

type Fields = Record<string, unknown>;

function envelope(data: unknown): Fields | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const fields = data as Fields;
  return fields.source === PROTOCOL_SOURCE && typeof fields.type === 'string' ? fields : null;
}

function hasOnlyKeys(fields: Fields, keys: string[]): boolean {
  return Object.keys(fields).every((key) => key === 'source' || key === 'type' || keys.includes(key));
}

const isText = (value: unknown, max = VISITOR_TEXT_MAX): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;

// A saved conversation is a JSON object's text; the frame reads its fields one by one when it loads it.
const isChat = (value: unknown): value is string => isText(value, SAVED_CHAT_MAX) && value.startsWith('{');

/** The message the iframe received from the host page, or null when it is not exactly one of ours. */
export function parseHostMessage(data: unknown): HostToFrameMessage | null {
  const fields = envelope(data);
  if (fields === null) return null;
  switch (fields.type) {
    case 'send':
      return hasOnlyKeys(fields, ['text']) && isText(fields.text)
        ? { source: PROTOCOL_SOURCE, type: 'send', text: fields.text }
        : null;
    case 'setLanguage':
      return hasOnlyKeys(fields, ['language']) && isLanguageCode(fields.language)
        ? { source: PROTOCOL_SOURCE, type: 'setLanguage', language: fields.language }
        : null;
    case 'opened':
      return hasOnlyKeys(fields, []) ? { source: PROTOCOL_SOURCE, type: 'opened' } : null;
    case 'init': {
      const config = configOf(fields.config);
      const { chat } = fields;
      return hasOnlyKeys(fields, ['config', 'chat']) && config !== null && (chat === null || isChat(chat))
        ? { source: PROTOCOL_SOURCE, type: 'init', config, chat }
        : null;
    }
    default:
      return null;
  }
}

/** The message the host page received from the iframe, or null when it is not exactly one of ours. */
export function parseFrameMessage(data: unknown): FrameToHostMessage | null {
  const fields = envelope(data);
  if (fields === null) return null;
  switch (fields.type) {
    case 'hello':
    case 'ready':
    case 'close':
    case 'handover':
      return hasOnlyKeys(fields, []) ? { source: PROTOCOL_SOURCE, type: fields.type } : null;
    case 'store':
      return hasOnlyKeys(fields, ['chat']) && isChat(fields.chat)
        ? { source: PROTOCOL_SOURCE, type: 'store', chat: fields.chat }
        : null;
    case 'message':
      return hasOnlyKeys(fields, ['role', 'text']) &&
        (fields.role === 'user' || fields.role === 'bot') &&
        isText(fields.text, EVENT_TEXT_MAX)
        ? { source: PROTOCOL_SOURCE, type: 'message', role: fields.role, text: fields.text }
        : null;
    default:
      return null;
  }
}

/** What the console's live preview posts to a widget opened with `?preview=1`. */
export interface PreviewConfigMessage {
  source: typeof PROTOCOL_SOURCE;
  type: 'previewConfig';
  config: PublicWidgetConfig;
  colorScheme: 'light' | 'dark';
}

const CONFIG_GROUPS = [
  'identity',
  'language',
  'welcome',
  'behaviour',
  'liveAgent',
  'services',
  'appearance',
  'feedback',
  'titles',
  'masking',
  'launcher',
  'window',
] as const;

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The configuration of a message, or null when it is not one. The loader and the console build it from the same
 * contract and only their window is listened to, so the check is of shape: every group present, the texts the chat
 * draws strings and its lists arrays.
 */
function configOf(config: unknown): PublicWidgetConfig | null {
  if (!isFields(config) || !CONFIG_GROUPS.every((group) => isFields(config[group]))) return null;
  const group = (name: (typeof CONFIG_GROUPS)[number]) => config[name] as Fields;
  const strings = (name: (typeof CONFIG_GROUPS)[number], keys: string[]) =>
    keys.every((key) => typeof group(name)[key] === 'string');
  const welcome = group('welcome');
  if (
    !strings('identity', ['botName', 'description', 'avatarUri']) ||
    !strings('welcome', ['welcomeText']) ||
    !strings('titles', ['inputTitle', 'sendTitle', 'muteTitle', 'unMuteTitle']) ||
    !strings('feedback', ['button1Text', 'button2Text', 'button3Text', 'disclaimer']) ||
    !strings('language', ['default_language']) ||
    !['welcomeMenu', 'popupMenu', 'start_suggestions'].every((key) => Array.isArray(welcome[key])) ||
    !Array.isArray(group('masking').patterns) ||
    !isFields(group('appearance').userBubble) ||
    !isFields(group('appearance').botBubble) ||
    !isFields(group('appearance').button) ||
    !isFields(group('appearance').bubble)
  )
    return null;
  return config as unknown as PublicWidgetConfig;
}

/** The preview configuration, or null when the message is not one. */
export function parsePreviewMessage(data: unknown): PreviewConfigMessage | null {
  const fields = envelope(data);
  if (fields === null || fields.type !== 'previewConfig' || !hasOnlyKeys(fields, ['config', 'colorScheme']))
    return null;
  const { colorScheme } = fields;
  if (colorScheme !== 'light' && colorScheme !== 'dark') return null;
  const config = configOf(fields.config);
  return config === null ? null : { source: PROTOCOL_SOURCE, type: 'previewConfig', config, colorScheme };
}
