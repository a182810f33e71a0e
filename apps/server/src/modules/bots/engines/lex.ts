import { randomUUID } from 'node:crypto';
import type { SessionState } from '@aws-sdk/client-lex-runtime-v2';
import { offersHandover } from '@omnibot/contracts';
import { and, desc, eq } from 'drizzle-orm';
import { conversationMessages, type IntegrationRow, type StoredLexSettings } from '../../../db/schema';
import { SecretBoxError } from '../../../lib/secret-box';
import { openLex } from '../../integrations/aws-engines.service';
import { cachedAwsRuntime } from '../../integrations/providers/aws-engine-cache';
import { createLexRuntime, type LexMessage, type LexTurn } from '../../integrations/providers/lex-runtime';
import { ProviderError } from '../../models/providers';
import type { AnswerDeps } from '../../rag/rag-answer';
import { type BotEngine, type BotReply, type BotRequest, fallbackReply } from '../bot-reply';

/** Lex's own name for the intent it chooses when it understood nothing. */
const LEX_NO_MATCH_INTENT = 'FallbackIntent';

/** A card's buttons as text the widget shows under its heading. */
function textOf(message: LexMessage): string {
  if (message.buttons.length === 0) return message.text;
  const options = message.buttons.map((button) => `- ${button.title}`).join('\n');
  return message.text ? `${message.text}\n${options}` : options;
}

/**
 * The Lex session state stored with the conversation's latest bot message, sent back so the dialog (intent, slots,
 * session attributes) carries on even after Lex's own session expired. Null for a new conversation.
 */
async function storedSessionState(
  deps: AnswerDeps,
  tenantId: string,
  conversationId: string,
): Promise<SessionState | null> {
  const [last] = await deps.db
    .select({ trace: conversationMessages.trace })
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.tenantId, tenantId),
        eq(conversationMessages.conversationId, conversationId),
        eq(conversationMessages.role, 'bot'),
      ),
    )
    .orderBy(desc(conversationMessages.createdAt))
    .limit(1);
  const session = last?.trace?.engine === 'lex' ? last.trace.session : undefined;
  return typeof session === 'object' && session !== null ? session : null;
}

/**
 * Answers with an Amazon Lex V2 bot: one Lex session per conversation (its id is the conversation's), the session
 * state kept across turns, the visitor's language and the bot's name as session attributes. Every message Lex
 * sends is shown (plain text; SSML as text; a card as its title and buttons; custom payloads skipped). Lex's
 * FallbackIntent gives the bot's fallback text, the integration's hand-over intent asks for a person, and a failing
 * call the fallback text with the reason on the trace.
 */
export function lexEngine(deps: AnswerDeps, row: IntegrationRow): BotEngine {
  const stored = row.settings as StoredLexSettings;
  return {
    async respond(request: BotRequest): Promise<BotReply> {
      const started = performance.now();
      const { bot } = request;
      let runtime;
      try {
        runtime = cachedAwsRuntime(`lex:${row.id}:${row.updatedAt.getTime()}:${deps.modelTimeoutMs}`, () =>
          createLexRuntime(openLex(deps.secretBox, stored), deps.modelFetch, {
            requestTimeoutMs: deps.modelTimeoutMs,
          }),
        );
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        return fallbackReply(request, started, {
          code: 'model/key-unreadable',
          reason:
            'The stored secret access key cannot be decrypted (the installation secret changed); enter it again.',
        });
      }
      const sessionId = request.conversationId ?? `omnibot-test-${randomUUID()}`;
      const language = request.language ?? bot.config.language.default_language;
      let turn: LexTurn;
      try {
        const sessionState =
          request.conversationId === undefined
            ? null
            : await storedSessionState(deps, request.tenantId, request.conversationId);
        turn = await runtime.recognize({
          sessionId,
          text: request.text,
          sessionState,
          attributes: { omnibot_language: language, omnibot_bot_name: bot.config.identity.botName },
          ...(request.signal === undefined ? {} : { signal: request.signal }),
        });
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        return fallbackReply(request, started, { code: error.code, reason: error.message });
      }
      const handoverRequested = stored.handover_intent !== '' && turn.intent === stored.handover_intent;
      const texts = turn.messages.map(textOf).filter((text) => text !== '');
      if (!handoverRequested && (turn.intent === LEX_NO_MATCH_INTENT || texts.length === 0)) {
        const failed = fallbackReply(request, started, {
          code: turn.intent === LEX_NO_MATCH_INTENT ? 'engine/no-match' : 'provider/bad-response',
          reason:
            turn.intent === LEX_NO_MATCH_INTENT
              ? `Lex matched no intent (${LEX_NO_MATCH_INTENT}).`
              : 'Lex answered without a message the widget can show.',
        });
        return { ...failed, trace: { ...failed.trace, engine: 'lex', session: turn.sessionState } };
      }
      const messages = (texts.length > 0 ? texts : [bot.config.engines.fallbackText]).map((text) => ({
        type: 'text' as const,
        text,
      }));
      for (const message of messages)
        request.stream?.delta(messages.length > 1 ? `${message.text}\n\n` : message.text);
      return {
        messages,
        sources: [],
        fallback: false,
        handoverOffered: handoverRequested && offersHandover(bot.config),
        handoverRequested,
        trace: {
          engine: 'lex',
          error: null,
          answerId: null,
          ms: Math.round((performance.now() - started) * 10) / 10,
          session: turn.sessionState,
        },
      };
    },
  };
}
