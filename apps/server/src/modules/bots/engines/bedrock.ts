import type { IntegrationRow, StoredBedrockSettings } from '../../../db/schema';
import { SecretBoxError } from '../../../lib/secret-box';
import { openBedrock } from '../../integrations/aws-engines.service';
import { cachedAwsRuntime } from '../../integrations/providers/aws-engine-cache';
import { createBedrockRuntime } from '../../integrations/providers/bedrock-runtime';
import { type AnswerDeps, answer } from '../../rag/rag-answer';
import { loadRagForAnswer } from '../../rag/rags.service';
import { tenantHoldsFeature } from '../../tenancy/tenant-features';
import { answerWithChat, type BotEngine, fallbackReply, reply } from '../bot-reply';

/**
 * Answers with a model on Amazon Bedrock (Converse, or ConverseStream when the widget streams). With a RAG the bot's
 * RAG retrieves the passages and Bedrock writes the answer with its citations, as the builtin engine does with the
 * RAG's own model; without one, Bedrock answers with the bot's prompt. Any failure (refused key, throttling, AWS
 * errors, a timeout, a malformed answer, a cut stream) gives the fallback text with the reason on the trace.
 */
export function bedrockEngine(deps: AnswerDeps, row: IntegrationRow): BotEngine {
  const stored = row.settings as StoredBedrockSettings;
  return {
    async respond(request) {
      const started = performance.now();
      const { tenantId, bot } = request;
      let chat;
      try {
        chat = cachedAwsRuntime(`bedrock:${row.id}:${row.updatedAt.getTime()}:${deps.modelTimeoutMs}`, () =>
          createBedrockRuntime(openBedrock(deps.secretBox, stored), deps.modelFetch, {
            requestTimeoutMs: deps.modelTimeoutMs,
          }),
        );
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        return fallbackReply(request, started, {
          code: 'model/key-unreadable',
          reason:
            'The stored AWS secret cannot be decrypted (the installation secret changed); enter it again.',
        });
      }
      const limits = { maxTokens: stored.max_tokens, temperature: stored.temperature };
      const ragId = bot.config.engines.rag_id;
      if (ragId === null) return answerWithChat(deps, request, started, chat, limits, 'bedrock');

      if (!(await tenantHoldsFeature(deps.db, tenantId, 'omnirag'))) {
        return fallbackReply(request, started, {
          code: 'forbidden',
          reason: 'The organisation has no Omni RAG subscription.',
        });
      }
      const found = await loadRagForAnswer(deps.db, tenantId, ragId, request.text);
      if (!found) {
        return fallbackReply(request, started, {
          code: 'bot/unknown-rag',
          reason: 'The RAG no longer exists.',
        });
      }
      const result = await answer(deps, {
        tenantId,
        rag: found.rag,
        index: found.index,
        question: request.text,
        history: request.history,
        ...(request.language === undefined ? {} : { language: request.language }),
        channel: request.channel ?? 'widget',
        actor: request.actor ?? null,
        botName: bot.config.identity.botName,
        fallbackText: bot.config.engines.fallbackText,
        // Without limits of its own the request takes the integration's max_tokens and temperature.
        chat,
        ...(request.stream === undefined ? {} : { stream: request.stream }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      if (result.model_error !== null) {
        // Bedrock failed: the visitor gets the bot's fallback text, not the RAG's extract.
        request.stream?.reset();
        const failed = fallbackReply(request, started, result.model_error);
        return { ...failed, trace: { ...failed.trace, answerId: result.id } };
      }
      return reply(request, started, {
        engine: 'bedrock',
        text: result.answer,
        sources: result.sources,
        fallback: result.fallback,
        error: null,
        answerId: result.id,
      });
    },
  };
}
