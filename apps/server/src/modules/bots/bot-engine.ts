import type {
  StoredBuiltinSettings,
  StoredDialogflowCxSettings,
  StoredOpenAiSettings,
} from '../../db/schema';
import { notFound } from '../../lib/errors';
import { SecretBoxError } from '../../lib/secret-box';
import { type AnswerDeps, chatModelOf } from '../rag/rag-answer';
import {
  chatbotIntegrationOf,
  integrationChatModel,
  openOpenAiSettings,
} from '../integrations/integrations.service';
import { BOT_NOT_FOUND, type StoredBot } from './bots.service';
import { bedrockEngine } from './engines/bedrock';
import { lexEngine } from './engines/lex';
import { answerWithDialogflow } from './engines/dialogflow-cx';
import { answerWithChat, type BotEngine, builtinEngine, fallbackEngine, fallbackReply } from './bot-reply';

export type { BotEngine, BotMessage, BotReply, BotRequest, BotTrace } from './bot-reply';
export { answerWithChat, fallbackReply, reply } from './bot-reply';

/** Answers with the bot's chat model and prompt (no retrieval); the fallback text when the model fails. */
function openAiEngine(deps: AnswerDeps): BotEngine {
  return {
    async respond(request) {
      const started = performance.now();
      const modelId = request.bot.config.engines.model_id;
      if (modelId === null) return fallbackReply(request, started);
      const model = await chatModelOf(deps, request.tenantId, modelId);
      if ('error' in model) return fallbackReply(request, started, model.error);
      return answerWithChat(deps, request, started, model.chat, {
        maxTokens: request.bot.config.openai.max_tokens,
        temperature: request.bot.config.openai.temperature,
      });
    },
  };
}

/**
 * Answers with the chatbot-engine integration the bot points at: builtin over the integration's RAG, or the
 * integration's OpenAI-compatible endpoint, model, key and limits with the bot's prompt. An integration that is
 * gone (or another tenant's) gives the fallback text with the reason.
 */
function integrationEngine(deps: AnswerDeps): BotEngine {
  return {
    async respond(request) {
      const started = performance.now();
      const { tenantId, bot } = request;
      const integrationId = bot.config.engines.integration_id;
      if (integrationId === null) return fallbackReply(request, started);
      const row = await chatbotIntegrationOf(deps.db, tenantId, integrationId);
      if (!row) {
        return fallbackReply(request, started, {
          code: 'bot/unknown-integration',
          reason: 'The chatbot integration no longer exists.',
        });
      }
      if (row.engine === 'builtin') {
        const { rag_id: ragId } = row.settings as StoredBuiltinSettings;
        const config = { ...bot.config, engines: { ...bot.config.engines, rag_id: ragId } };
        return builtinEngine(deps).respond({ ...request, bot: { ...bot, config } });
      }
      if (row.engine === 'dialogflowcx') {
        const outcome = await answerWithDialogflow(
          deps,
          request,
          row.settings as StoredDialogflowCxSettings,
          started,
        );
        return 'reply' in outcome ? outcome.reply : fallbackReply(request, started, outcome.failure);
      }
      if (row.engine === 'lex') return lexEngine(deps, row).respond(request);
      if (row.engine === 'bedrock') {
        return bedrockEngine(deps, row).respond(request);
      }
      let settings: StoredOpenAiSettings;
      try {
        settings = openOpenAiSettings(deps.secretBox, row.settings as StoredOpenAiSettings);
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        return fallbackReply(request, started, {
          code: 'model/key-unreadable',
          reason:
            'The stored API key cannot be decrypted (the installation secret changed); enter the key again.',
        });
      }
      return answerWithChat(
        deps,
        request,
        started,
        integrationChatModel(settings, deps.modelTimeoutMs, deps.modelFetch),
        {
          maxTokens: settings.max_tokens,
          temperature: settings.temperature,
        },
      );
    },
  };
}

/** The engine a bot answers with: its integration, builtin over its RAG, openai with its chat model, or its fallback. */
function chooseEngine(deps: AnswerDeps, bot: StoredBot): BotEngine {
  const { botEngine, rag_id: ragId, model_id: modelId, integration_id: integrationId } = bot.config.engines;
  if (integrationId !== null) return integrationEngine(deps);
  if (botEngine === 'builtin' && ragId !== null) return builtinEngine(deps);
  if (botEngine === 'openai' && modelId !== null) return openAiEngine(deps);
  return fallbackEngine;
}

/**
 * The engine a bot answers with: its chatbot-engine integration when it names one, else builtin over its RAG,
 * openai with its chat model, otherwise its fallback text. A request whose tenant is not the bot's is refused as an unknown bot.
 */
export function engineFor(deps: AnswerDeps, bot: StoredBot): BotEngine {
  const engine = chooseEngine(deps, bot);
  return {
    respond: (request) =>
      request.tenantId === request.bot.row.tenantId
        ? engine.respond(request)
        : Promise.reject(notFound(BOT_NOT_FOUND)),
  };
}
