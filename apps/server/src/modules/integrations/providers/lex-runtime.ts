import {
  DeleteSessionCommand,
  LexRuntimeV2Client,
  type Message,
  RecognizeTextCommand,
  type SessionState,
} from '@aws-sdk/client-lex-runtime-v2';
import { type LexSettings, lexEndpointOf } from '@omnibot/contracts';
import type { GuardedWebFetch } from '../../../lib/guarded-http/guarded-fetch';
import { ProviderError } from '../../models/providers';
import { awsEngineFailure } from './aws-engine-failure';
import { GuardedSmithyHandler } from './guarded-smithy-handler';

/**
 * Amazon Lex V2 through the official runtime client (RecognizeText, SigV4 with the integration's access key), every
 * request through the guarded HTTP client to the region's runtime or the settings' override, one attempt.
 */

const SERVICE = 'Amazon Lex';
const MAX_ANSWER_BYTES = 512 * 1024;
/** Lex's limit on a session attribute value; longer values are cut. */
const ATTRIBUTE_MAX = 1024;

/** One message of a Lex answer, as the bot shows it. */
export interface LexMessage {
  text: string;
  /** An ImageResponseCard's buttons: what the visitor may tap (title shown, value sent). */
  buttons: { title: string; value: string }[];
}

export interface LexTurn {
  messages: LexMessage[];
  /** The intent Lex chose ('FallbackIntent' when it understood nothing), or null. */
  intent: string | null;
  /** The intent's state after the turn (InProgress, Fulfilled, Failed, ...), or null. */
  intentState: string | null;
  /** What Lex keeps for the session, sent back on the next turn. */
  sessionState: SessionState | null;
}

export interface LexRuntime {
  /** One visitor turn in session `sessionId`; throws ProviderError in plain words when Lex fails. */
  recognize(input: {
    sessionId: string;
    text: string;
    sessionState?: SessionState | null;
    attributes: Record<string, string>;
    signal?: AbortSignal;
  }): Promise<LexTurn>;
  /** A harmless real call: one turn in a throwaway session, deleted after. */
  probe(): Promise<{ latencyMs: number; detail: string }>;
}

/** SSML tags removed and the common entities read back, so a voice answer reads as text. */
export function ssmlToText(ssml: string): string {
  return ssml
    .replace(/<break[^>]*>/giu, ' ')
    .replace(/<[^>]+>/gu, '')
    .replace(/&lt;/gu, '<')
    .replace(/&gt;/gu, '>')
    .replace(/&quot;/gu, '"')
    .replace(/&apos;/gu, "'")
    .replace(/&amp;/gu, '&')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** A Lex message as text and buttons; a custom payload (for the bot's own channels) gives null. */
export function lexMessageOf(message: Message): LexMessage | null {
  switch (message.contentType) {
    case 'PlainText':
      return message.content?.trim() ? { text: message.content.trim(), buttons: [] } : null;
    case 'SSML': {
      const text = ssmlToText(message.content ?? '');
      return text ? { text, buttons: [] } : null;
    }
    case 'ImageResponseCard': {
      const card = message.imageResponseCard;
      if (!card) return null;
      const heading = [card.title, card.subtitle].filter((part) => part?.trim()).join('\n');
      const buttons = (card.buttons ?? []).flatMap((button) => {
        const title = button.text?.trim() ?? '';
        return title ? [{ title, value: button.value?.trim() || title }] : [];
      });
      return heading || buttons.length ? { text: heading, buttons } : null;
    }
    default:
      // CustomPayload is for channels that know the bot's own format: the widget does not.
      return null;
  }
}

const cutAttribute = (value: string) =>
  value.length > ATTRIBUTE_MAX ? value.slice(0, ATTRIBUTE_MAX) : value;

export function createLexRuntime(
  settings: LexSettings,
  fetch: GuardedWebFetch,
  options: { requestTimeoutMs: number },
): LexRuntime {
  const handler = new GuardedSmithyHandler(fetch, {
    requestTimeoutMs: options.requestTimeoutMs,
    maxBytes: MAX_ANSWER_BYTES,
  });
  // One attempt: the visitor waits, and a hang must not be multiplied by the SDK's retries.
  const client = new LexRuntimeV2Client({
    region: settings.region,
    endpoint: lexEndpointOf(settings),
    credentials: { accessKeyId: settings.access_key_id, secretAccessKey: settings.secret_access_key },
    requestHandler: handler,
    maxAttempts: 1,
  });
  const secrets = [settings.secret_access_key];
  const target = {
    botId: settings.bot_id,
    botAliasId: settings.bot_alias_id,
    localeId: settings.locale_id,
  };

  async function recognize(input: Parameters<LexRuntime['recognize']>[0]): Promise<LexTurn> {
    const previous = input.sessionState ?? null;
    const sessionAttributes = {
      ...(previous?.sessionAttributes ?? {}),
      ...Object.fromEntries(
        Object.entries(input.attributes).map(([name, value]) => [name, cutAttribute(value)]),
      ),
    };
    let answer;
    try {
      answer = await client.send(
        new RecognizeTextCommand({
          ...target,
          sessionId: input.sessionId,
          text: input.text,
          sessionState: { ...(previous ?? {}), sessionAttributes },
        }),
        input.signal ? { abortSignal: input.signal } : {},
      );
    } catch (error) {
      throw awsEngineFailure(SERVICE, error, secrets, input.signal);
    }
    if (typeof answer !== 'object' || (answer.messages !== undefined && !Array.isArray(answer.messages))) {
      throw new ProviderError('provider/bad-response', `${SERVICE} sent an answer without messages.`);
    }
    const intent = answer.sessionState?.intent ?? answer.interpretations?.[0]?.intent ?? null;
    return {
      messages: (answer.messages ?? []).flatMap((message) => lexMessageOf(message) ?? []),
      intent: intent?.name ?? null,
      intentState: intent?.state ?? null,
      sessionState: answer.sessionState ?? null,
    };
  }

  return {
    recognize,
    async probe() {
      const started = performance.now();
      const sessionId = `omnibot-probe-${crypto.randomUUID()}`;
      const turn = await recognize({ sessionId, text: 'Hello', attributes: {} });
      const latencyMs = Math.round(performance.now() - started);
      // The throwaway session is removed; when that fails it simply expires with Lex's idle timeout.
      await client.send(new DeleteSessionCommand({ ...target, sessionId })).catch(() => undefined);
      return {
        latencyMs,
        detail: `The Lex bot ${settings.bot_id} (alias ${settings.bot_alias_id}, ${settings.locale_id}) answered in ${latencyMs} ms${turn.intent ? ` with the intent ${turn.intent}` : ''}.`,
      };
    },
  };
}
