import type { PublicWidgetConfig } from '@omnibot/contracts';

/** What the chat app asks the server to answer. */
export interface IntentRequest {
  botId: string;
  /** The server-issued, signed conversation token; absent on a conversation's first message. */
  conversationToken?: string;
  text: string;
  language: string;
}

export interface IntentSource {
  title: string;
  url: string;
}

/** The server's answer to a visitor message. */
export interface IntentReply {
  conversationToken?: string;
  messages: string[];
  sources: IntentSource[];
  handoverOffered: boolean;
}

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

async function failure(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return new ApiError(
    response.status,
    typeof fields.code === 'string' ? fields.code : 'HTTP_' + String(response.status),
    typeof fields.message === 'string' ? fields.message : response.statusText,
  );
}

async function call(input: string, init?: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached.');
  }
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** The bot's public widget configuration. */
export async function fetchConfig(apiBase: string, botId: string): Promise<PublicWidgetConfig> {
  return (await call(`${apiBase}/v1/widget/${encodeURIComponent(botId)}/config`)) as PublicWidgetConfig;
}

function textOf(message: unknown): string | null {
  if (typeof message === 'string') return message;
  if (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { text?: unknown }).text === 'string'
  )
    return (message as { text: string }).text;
  return null;
}

function sourceOf(source: unknown): IntentSource | null {
  if (typeof source !== 'object' || source === null) return null;
  const { title, url } = source as Record<string, unknown>;
  return typeof url === 'string' ? { title: typeof title === 'string' ? title : url, url } : null;
}

/** Reads the server's reply, keeping only well-formed messages and sources. */
export function readReply(body: unknown): IntentReply {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const list = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : []);
  return {
    conversationToken: typeof fields.conversationToken === 'string' ? fields.conversationToken : undefined,
    messages: list(fields.messages)
      .map(textOf)
      .filter((text): text is string => text !== null && text !== ''),
    sources: list(fields.sources)
      .map(sourceOf)
      .filter((source): source is IntentSource => source !== null),
    handoverOffered: fields.handoverOffered === true,
  };
}

/** Sends a visitor message to the bot and returns its answer. */
export async function sendMessage(apiBase: string, request: IntentRequest): Promise<IntentReply> {
  const body = await call(`${apiBase}/v1/intent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  return readReply(body);
}
