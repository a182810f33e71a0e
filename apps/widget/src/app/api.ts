import {
  createSseParser,
  type ConversationEventsBody,
  type ConversationState,
  type ConversationStatus,
  type FeedbackBody,
  type HandoverBody,
  type IntentBody,
  type IntentMessage,
  type IntentReply,
  type IntentSource,
  type LiveMessage,
  type MessageRole,
  type PublicWidgetConfig,
  type TtsBody,
} from '@omnibot/contracts';

/** A refused or failed call: the HTTP status (0 when the server was unreachable) and the server's code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

// Codes a stream's `error` event may carry, with the status the same refusal has as a plain response.
const STATUS_OF_CODE: Record<string, number> = { 'widget/text-too-long': 413, 'widget/rate-limited': 429 };

/** What the visitor is told when a message could not be sent, in plain words. */
export function describeSendError(error: unknown): string {
  const status = error instanceof ApiError ? error.status : 0;
  if (status === 413) return 'This message is too long. Please shorten it and send it again.';
  if (status === 429) return 'You are sending messages too quickly. Please wait a moment, then retry.';
  if (status === 0) return 'Not sent: the connection was lost.';
  return 'Not sent: the assistant could not answer just now.';
}

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);

async function failure(response: Response): Promise<ApiError> {
  const fields = fieldsOf(await response.json().catch(() => null));
  return new ApiError(
    response.status,
    typeof fields.code === 'string' ? fields.code : `http/${String(response.status)}`,
    typeof fields.message === 'string' ? fields.message : response.statusText,
  );
}

async function request(input: string, init?: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    if (init?.signal?.aborted === true) throw error;
    throw new ApiError(0, 'network', 'The server could not be reached.');
  }
  if (!response.ok) throw await failure(response);
  return response;
}

const postJson = (body: unknown, init: RequestInit = {}): RequestInit => ({
  ...init,
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  body: JSON.stringify(body),
});

/** The bot's public widget configuration. */
export async function fetchConfig(apiBase: string, botId: string): Promise<PublicWidgetConfig> {
  const response = await request(`${apiBase}/v1/widget/${encodeURIComponent(botId)}/config`);
  return (await response.json()) as PublicWidgetConfig;
}

function messageOf(value: unknown): IntentMessage | null {
  const { id, text } = fieldsOf(value);
  return typeof id === 'string' && typeof text === 'string' ? { id, text } : null;
}

function sourceOf(value: unknown): IntentSource | null {
  const { n, title, url } = fieldsOf(value);
  if (typeof n !== 'number' || typeof title !== 'string') return null;
  return { n, title, url: typeof url === 'string' ? url : null };
}

/** The server's reply checked field by field; null when it is not an IntentReply. */
function readReply(body: unknown): IntentReply | null {
  const fields = fieldsOf(body);
  const visitorMessage = messageOf(fields.visitorMessage);
  if (typeof fields.conversationToken !== 'string' || visitorMessage === null) return null;
  const handover = readStatus(fields.handover);
  return {
    conversationToken: fields.conversationToken,
    visitorMessage,
    messages: listOf(fields.messages)
      .map(messageOf)
      .filter((message): message is IntentMessage => message !== null && message.text !== ''),
    sources: listOf(fields.sources)
      .map(sourceOf)
      .filter((source): source is IntentSource => source !== null),
    fallback: fields.fallback === true,
    handoverOffered: fields.handoverOffered === true,
    language: typeof fields.language === 'string' ? fields.language : '',
    ...(handover === null ? {} : { handover }),
  };
}

/** What a streamed answer reports before its reply arrives. */
interface IntentProgress {
  /** The conversation token and the visitor's message as the server stored it (masked when masking is on). */
  onConversation?: (conversationToken: string, visitorMessage: IntentMessage) => void;
  /** More of the answer's text. */
  onDelta?: (text: string) => void;
  /** What was streamed so far is not the answer: discard it. */
  onReset?: () => void;
}

const malformed = () => new ApiError(0, 'widget/bad-reply', 'The answer could not be read.');

async function readStream(body: ReadableStream<Uint8Array>, progress: IntentProgress): Promise<IntentReply> {
  const outcome: { reply: IntentReply | null; refusal: ApiError | null } = { reply: null, refusal: null };
  const parser = createSseParser(({ event, data }) => {
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    const fields = fieldsOf(payload);
    if (event === 'conversation') {
      const visitorMessage = messageOf(fields.visitorMessage);
      if (typeof fields.conversationToken === 'string' && visitorMessage !== null)
        progress.onConversation?.(fields.conversationToken, visitorMessage);
    } else if (event === 'delta' && typeof fields.text === 'string') progress.onDelta?.(fields.text);
    else if (event === 'reset') progress.onReset?.();
    else if (event === 'reply') outcome.reply = readReply(payload) ?? outcome.reply;
    else if (event === 'error') {
      const code = typeof fields.code === 'string' ? fields.code : 'widget/stream-error';
      outcome.refusal = new ApiError(
        STATUS_OF_CODE[code] ?? 502,
        code,
        typeof fields.message === 'string' ? fields.message : 'The answer failed.',
      );
    }
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
  } catch {
    throw new ApiError(0, 'network', 'The connection was lost while the answer was coming in.');
  }
  parser.push(decoder.decode());
  parser.end();
  if (outcome.refusal !== null) throw outcome.refusal;
  if (outcome.reply === null) throw new ApiError(0, 'network', 'The answer was cut off.');
  return outcome.reply;
}

/**
 * Sends a visitor message. The answer is asked for as a stream (text/event-stream) and reported through
 * `progress` as it comes; a server that answers with JSON instead gives the whole reply at once.
 */
export async function postIntent(
  apiBase: string,
  body: IntentBody,
  progress: IntentProgress = {},
  signal?: AbortSignal,
): Promise<IntentReply> {
  const response = await request(
    `${apiBase}/v1/intent`,
    postJson(body, { headers: { accept: 'text/event-stream' }, signal }),
  );
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream') && response.body !== null)
    return readStream(response.body, progress);
  const reply = readReply(await response.json().catch(() => null));
  if (reply === null) throw malformed();
  progress.onConversation?.(reply.conversationToken, reply.visitorMessage);
  return reply;
}

/** Records the visitor's rating (and comment) of one bot message. */
export async function postFeedback(apiBase: string, body: FeedbackBody): Promise<void> {
  await request(`${apiBase}/v1/feedback`, postJson(body));
}

/** Audio of a text read in the bot's server voice; 501 (ApiError) when the bot has no server voice. */
export async function fetchSpeech(apiBase: string, body: TtsBody): Promise<Blob> {
  const response = await request(`${apiBase}/v1/tts`, postJson(body));
  return response.blob();
}

const STATES: readonly ConversationState[] = ['bot', 'queued', 'agent', 'closed'];
const ROLES: readonly MessageRole[] = ['visitor', 'bot', 'agent', 'system'];
const isState = (value: unknown): value is ConversationState => STATES.includes(value as ConversationState);
const isRole = (value: unknown): value is MessageRole => ROLES.includes(value as MessageRole);

/** A conversation's status checked field by field; null when it is not a ConversationStatus. */
export function readStatus(body: unknown): ConversationStatus | null {
  const { state, position, agent } = fieldsOf(body);
  if (!isState(state)) return null;
  const name = fieldsOf(agent).name;
  return {
    state,
    position: typeof position === 'number' ? position : null,
    agent: typeof name === 'string' ? { name } : null,
  };
}

/** A message of a live conversation checked field by field; null when it is not a LiveMessage. */
export function readLiveMessage(body: unknown): LiveMessage | null {
  const { id, role, text, author, at, language, translation, untranslated } = fieldsOf(body);
  if (typeof id !== 'string' || typeof text !== 'string' || !isRole(role)) return null;
  const translated = fieldsOf(translation);
  return {
    id,
    role,
    text,
    author: typeof author === 'string' ? author : null,
    at: typeof at === 'string' ? at : '',
    ...(typeof language === 'string' ? { language } : {}),
    ...(typeof translated.text === 'string' && typeof translated.language === 'string'
      ? { translation: { text: translated.text, language: translated.language } }
      : {}),
    ...(untranslated === true ? { untranslated: true } : {}),
  };
}

/** Asks for a person to answer the conversation; its status once asked (queued, usually). */
export async function postHandover(apiBase: string, body: HandoverBody): Promise<ConversationStatus> {
  const response = await request(`${apiBase}/v1/handover`, postJson(body));
  const status = readStatus(await response.json().catch(() => null));
  if (status === null) throw malformed();
  return status;
}

/** Tells the person answering that the visitor is typing. */
export async function postVisitorTyping(
  apiBase: string,
  body: Pick<HandoverBody, 'botId' | 'conversationToken'>,
): Promise<void> {
  await request(`${apiBase}/v1/conversation/typing`, postJson(body));
}

/** Opens the event stream of a live conversation (after `body.after`); its body, to read as text/event-stream. */
export async function openConversationEvents(
  apiBase: string,
  body: ConversationEventsBody,
  signal: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const response = await request(
    `${apiBase}/v1/conversation/events`,
    postJson(body, { headers: { accept: 'text/event-stream' }, signal }),
  );
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || response.body === null)
    throw new ApiError(0, 'widget/bad-reply', 'The conversation events could not be read.');
  return response.body;
}
