import type { InboxConversation, InboxTranscript, LiveMessage } from '@omnibot/contracts';
import { vi } from 'vitest';
import { defined } from './defined';
import { json } from './fake-auth-api';

export const ME = { id: 'u1', name: 'Grace Hopper' };
export const OTHER_AGENT = { id: 'u2', name: 'Alan Turing' };

export const QUEUED_ID = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
export const MINE_ID = '7b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e';
export const OTHERS_ID = '8c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f';

/** A conversation of the inbox; waiting since three minutes before `now` unless told otherwise. */
export function makeConversation(overrides: Partial<InboxConversation> = {}): InboxConversation {
  return {
    id: QUEUED_ID,
    bot: { id: 'b1', name: 'Help bot' },
    state: 'queued',
    reason: 'visitor',
    language: 'de',
    origin: 'https://shop.acme.test',
    country: 'DE',
    queued_at: new Date(Date.now() - 3 * 60_000 - 5_000).toISOString(),
    agent: null,
    last_message: { role: 'visitor', text: 'Can a person help me?', at: '2026-01-01T10:02:00.000Z' },
    message_count: 3,
    ...overrides,
  };
}

export const message = (id: string, role: LiveMessage['role'], text: string, author: string | null = null) =>
  ({ id, role, text, author, at: '2026-01-01T10:00:00.000Z' }) satisfies LiveMessage;

/** The bot's part of a conversation, then the visitor's request for a person. */
export const BOT_PART: LiveMessage[] = [
  message('m1', 'visitor', 'Where is my parcel?'),
  message('m2', 'bot', 'Sorry, I do not know that.'),
  message('m3', 'visitor', 'Can a person help me?'),
];

export const transcriptOf = (conversation: InboxConversation, messages = BOT_PART): InboxTranscript => ({
  conversation,
  messages,
  summary: null,
});

/**
 * A tiny inbox API: GET and PUT /v1/inbox/preferences keep the person's language, GET /v1/inbox answers `list()`, GET /v1/inbox/:id answers the transcript of `transcripts()`,
 * and POSTs go to `post` (a 404 unless it answers). The lists are functions so a test can change what comes next.
 */
export function inboxHandler(options: {
  list: () => InboxConversation[];
  transcripts: () => Record<string, InboxTranscript>;
  post?: (path: string, body: unknown) => Response | undefined;
  liveAgents?: boolean;
  /** The signed-in person's language as the server keeps it; PUT changes it. */
  preferences?: { language: string };
}) {
  const preferences = options.preferences ?? { language: 'en' };
  return (method: string, path: string, body: unknown): Response | undefined => {
    if (path === '/v1/inbox/preferences') {
      if (method === 'PUT') preferences.language = (body as { language: string }).language;
      return json(200, { ...preferences });
    }
    if (method === 'GET' && path === '/v1/inbox/summary')
      return json(200, { live_agents: options.liveAgents ?? true, queued: 1, mine: 0 });
    if (method === 'GET' && path === '/v1/inbox') return json(200, { items: options.list() });
    if (method === 'GET' && path.startsWith('/v1/inbox/')) {
      const transcript = options.transcripts()[path.slice('/v1/inbox/'.length)];
      return transcript ? json(200, transcript) : undefined;
    }
    if (method === 'POST' && path.startsWith('/v1/inbox/')) return options.post?.(path, body);
    return undefined;
  };
}

/** A stand-in for the browser's EventSource: the test opens, fails and sends events by hand. */
export class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];
  readonly url: string;
  readonly withCredentials: boolean;
  closed = false;

  constructor(url: string | URL, init?: EventSourceInit) {
    super();
    this.url = String(url);
    this.withCredentials = init?.withCredentials ?? false;
    FakeEventSource.instances.push(this);
  }

  close() {
    this.closed = true;
  }

  emit(type: string, data: unknown) {
    this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data) }));
  }

  open() {
    this.dispatchEvent(new Event('open'));
  }

  fail() {
    this.dispatchEvent(new Event('error'));
  }

  /** The one stream the screen opened (and has not closed). */
  static current(): FakeEventSource {
    const open = FakeEventSource.instances.filter((source) => !source.closed);
    if (open.length !== 1) throw new Error(`Expected one open event stream, found ${open.length}`);
    return defined(open[0], 'open event stream');
  }
}

export function stubEventSource() {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
}
