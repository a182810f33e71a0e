import type { ConnectSettings, GenesysSettings, LIVE_AGENT_ERRORS } from '@omnibot/contracts';
import type { GuardedWebFetch } from '../../../lib/guarded-http/guarded-fetch';
import type { GuardedSocketOpener } from '../../../lib/guarded-http/guarded-websocket';

/**
 * One small interface for the contact centres a conversation is handed over to (Genesys Cloud, Amazon Connect).
 * The server holds the provider's socket, never the browser. The relay (one per conversation, on one server
 * process at a time) starts or resumes a session, sends the visitor's messages, typing and the end, and turns the
 * provider's events into the conversation's own (agent joined, typing, message, left, ended).
 *
 * Every text given to a provider is already masked by the caller (the bot's masks), as it is for engines.
 */

/** A line of the conversation so far, given to the agent at the start. */
export interface ProviderTranscriptLine {
  role: 'visitor' | 'bot' | 'agent' | 'system';
  text: string;
  at: Date;
}

export interface ProviderStart {
  /** The conversation's id: a provider-side idempotency key (Connect's ClientToken) and an attribute. */
  conversationId: string;
  /** The name the agent sees for the visitor. */
  visitorName: string;
  /** The visitor's language (BCP 47). */
  language: string;
  /** Masked. */
  transcript: readonly ProviderTranscriptLine[];
  /** The case summary for the agent (masked), when the bot has one configured. */
  summary: string | null;
}

/** What a provider tells the conversation. Messages carry the provider's id, so a back-filled copy is recognised. */
export type ProviderEvent =
  | { type: 'joined'; name: string; at: Date }
  | { type: 'typing'; at: Date }
  | { type: 'message'; providerId: string; text: string; name: string | null; at: Date }
  | { type: 'left'; name: string | null; at: Date }
  /** The agent or the contact centre ended the conversation. */
  | { type: 'ended'; at: Date }
  /** The socket dropped or stopped answering; the relay resumes the session with its saved state. */
  | { type: 'disconnected'; reason: string };

export type ProviderFailureCode = Extract<
  keyof typeof LIVE_AGENT_ERRORS,
  'handover/provider-refused' | 'handover/provider-busy' | 'handover/provider-unavailable'
>;

/**
 * A provider's refusal or failure in plain words, for the visitor (`code`'s message) and the tenant's log
 * (`detail`, which never holds a secret or a visitor's text). `retryable`: trying again later may succeed.
 */
export class ProviderFailure extends Error {
  constructor(
    readonly code: ProviderFailureCode,
    readonly detail: string,
    readonly retryable: boolean,
  ) {
    super(detail);
    this.name = 'ProviderFailure';
  }

  /** The failure an HTTP status of the provider means: 401/403 refused, 429 busy, anything else unavailable. */
  static ofStatus(status: number, detail: string): ProviderFailure {
    if (status === 401 || status === 403)
      return new ProviderFailure('handover/provider-refused', detail, false);
    if (status === 429) return new ProviderFailure('handover/provider-busy', detail, true);
    return new ProviderFailure('handover/provider-unavailable', detail, true);
  }
}

/**
 * What a session needs to be resumed by any server process (tokens, ids); stored sealed with the conversation.
 * Only strings, so it round-trips through JSON unchanged.
 */
export type ProviderSessionState = Readonly<Record<string, string>>;

/** An open session with the contact centre for one conversation. */
export interface ProviderSession {
  /** Saved (sealed) after start and after every change, so another process can resume the session. */
  readonly state: ProviderSessionState;
  /** A visitor's message (masked); `id` is ours, for the provider's idempotency where it has one. */
  send(message: { id: string; text: string }): Promise<void>;
  typing(): Promise<void>;
  /** The visitor or the bot ends the conversation (the visitor left, an agent of ours closed it). */
  end(): Promise<void>;
  /**
   * The agent's messages the provider holds, written at or after `since` (history or transcript API), to back-fill
   * what the socket missed while it was down. Returned oldest first; duplicates of delivered messages are dropped
   * by the relay through `providerId`.
   */
  backfill(since: Date): Promise<Extract<ProviderEvent, { type: 'message' }>[]>;
  /** Closes the socket without ending the conversation (the process stops or gives the session to another). */
  detach(): Promise<void>;
}

/** Events arrive through this callback, in the order of their time. */
export type ProviderListener = (event: ProviderEvent) => void;

/** The outbound means a provider is given: every address it reaches goes through the guarded client's policy. */
export interface ProviderNetwork {
  fetch: GuardedWebFetch;
  openSocket: GuardedSocketOpener;
}

/** A configured contact centre (one integration's decrypted settings and the network it may use). */
export interface LiveAgentProvider {
  readonly kind: 'genesys' | 'connect';
  /** Opens a new session for a conversation handed over; rejects with a ProviderFailure. */
  start(input: ProviderStart, listener: ProviderListener): Promise<ProviderSession>;
  /** Re-opens a session from its saved state (after a drop, or on another process); rejects with a ProviderFailure. */
  resume(state: ProviderSessionState, listener: ProviderListener): Promise<ProviderSession>;
  /**
   * Checks the settings without starting a conversation (the integration's "test connection"): the answer in plain
   * words, and how long it took.
   */
  probe(): Promise<{ ok: true; latencyMs: number; detail: string } | { ok: false; failure: ProviderFailure }>;
}

/**
 * How app.ts makes a provider from an integration's settings (secrets opened). Built once in app.ts and handed to
 * the integrations routes (test connection) and the live-agent relay.
 */
export interface ProviderFactories {
  genesys: (settings: GenesysSettings, network: ProviderNetwork) => LiveAgentProvider;
  connect: (settings: ConnectSettings, network: ProviderNetwork) => LiveAgentProvider;
}
