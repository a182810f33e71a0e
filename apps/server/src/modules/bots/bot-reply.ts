import { type AnswerSource, type HistoryTurn, offersHandover, renderPrompt } from '@omnibot/contracts';
import { tenantHoldsFeature } from '../tenancy/tenant-features';
import { type AnswerDeps, type AnswerStream, answer, promptTemplate, renderHistory } from '../rag/rag-answer';
import { loadRagForAnswer } from '../rag/rags.service';
import { type ChatModel, ProviderError } from '../models/providers';
import { type StoredBot } from './bots.service';

/*
 * What every bot engine shares: the request and reply shapes, the reply and fallback builders, and answering with a
 * chat model. The engines (builtin here, the cloud engines in engines/) build on it; bot-engine.ts chooses one.
 */
/** What a visitor said, with what the engine needs to answer it. */
export interface BotRequest {
  /** The tenant asking; the bot must be its own, and every lookup is filtered by it. */
  tenantId: string;
  bot: StoredBot;
  text: string;
  /** Earlier turns, oldest first. */
  history: HistoryTurn[];
  /** The language to answer in; the RAG's setting (or the question's language) when left out. */
  language?: string;
  /** When given, the answer text is delivered here as it is made. */
  stream?: AnswerStream;
  signal?: AbortSignal;
  /** Where the question came from, stored with a RAG answer: 'widget' (the default) or 'test' (staff in the console). */
  channel?: 'widget' | 'test';
  /** Who asked, stored with a RAG answer (a user id, `credential:<id>`); null (the default) for a visitor. */
  actor?: string | null;
  /** The conversation the turn belongs to (a cloud engine keeps one session per conversation); none in bot testing. */
  conversationId?: string;
  /** The visitor's country (ISO 3166-1 alpha-2) when the bot's geolocation is on and found one. */
  country?: string | null;
}

export interface BotMessage {
  type: 'text';
  text: string;
}

/** How an answer was made, for the conversation log and for debugging a bot. */
export interface BotTrace {
  engine: 'builtin' | 'openai' | 'dialogflowcx' | 'lex' | 'bedrock' | 'fallback';
  /** Why the engine could not answer normally (its error in plain words); null when it did. */
  error: { code: string; reason: string } | null;
  /** The stored RAG answer (builtin engine). */
  answerId: string | null;
  ms: number;
  /** What a cloud engine keeps for the conversation (Lex's session state), stored with the turn and sent back next turn. */
  session?: unknown;
}

export interface BotReply {
  messages: BotMessage[];
  sources: AnswerSource[];
  /** True when the bot had no answer and gave its fallback text. */
  fallback: boolean;
  /** The language the messages are in when an engine chose it (a translated answer); the request's otherwise. */
  language?: string;
  /** True when the widget should offer a live agent: a fallback while the live agent is switched on. */
  handoverOffered: boolean;
  /** True when the engine itself asks for a person (a cloud engine's live-agent hand-off): the bot hands over. */
  handoverRequested?: boolean;
  trace: BotTrace;
}

/** An answering engine; cloud engines implement the same call. */
export interface BotEngine {
  respond(request: BotRequest): Promise<BotReply>;
}

export function reply(
  request: BotRequest,
  started: number,
  made: { text: string; sources?: AnswerSource[]; fallback: boolean } & Omit<BotTrace, 'ms'>,
): BotReply {
  return {
    messages: [{ type: 'text', text: made.text }],
    sources: made.sources ?? [],
    fallback: made.fallback,
    handoverOffered: made.fallback && offersHandover(request.bot.config),
    trace: {
      engine: made.engine,
      error: made.error,
      answerId: made.answerId,
      ms: Math.round((performance.now() - started) * 10) / 10,
    },
  };
}

/** The bot's fallback text, streamed too when a stream is given. */
export function fallbackReply(
  request: BotRequest,
  started: number,
  error: BotTrace['error'] = null,
): BotReply {
  const text = request.bot.config.engines.fallbackText;
  request.stream?.delta(text);
  return reply(request, started, { engine: 'fallback', text, fallback: true, error, answerId: null });
}

/** A bot with no engine it can use: its fallback text, offering an agent when the live agent is on. */
export const fallbackEngine: BotEngine = {
  respond: (request) => Promise.resolve(fallbackReply(request, performance.now())),
};

/** Answers with the Omni RAG engine over the bot's RAG (the tenant must hold omnirag and own the RAG). */
export function builtinEngine(deps: AnswerDeps): BotEngine {
  return {
    async respond(request) {
      const started = performance.now();
      const { tenantId, bot } = request;
      const ragId = bot.config.engines.rag_id;
      if (ragId === null) return fallbackReply(request, started);
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
        // A bot answers with its own fallback text; the RAG's is for the RAG API only.
        fallbackText: bot.config.engines.fallbackText,
        ...(request.stream === undefined ? {} : { stream: request.stream }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      return reply(request, started, {
        engine: 'builtin',
        text: result.answer,
        sources: result.sources,
        fallback: result.fallback,
        error: result.model_error,
        answerId: result.id,
      });
    },
  };
}

/** The answer of a chat model with the bot's prompt (no retrieval); the fallback text when the model fails. */
export async function answerWithChat(
  deps: AnswerDeps,
  request: BotRequest,
  started: number,
  chat: ChatModel,
  limits: { maxTokens: number; temperature: number },
  engine: 'openai' | 'bedrock' = 'openai',
): Promise<BotReply> {
  const { tenantId, bot } = request;
  const template = await promptTemplate(deps.db, tenantId, bot.config.engines.prompt_id);
  const language = request.language ?? bot.config.language.default_language;
  const system =
    template === null
      ? `You are ${bot.config.identity.botName}, a helpful assistant. Answer in the language "${language}".`
      : renderPrompt(template, {
          question: request.text,
          context: '',
          history: renderHistory(request.history),
          language,
          bot_name: bot.config.identity.botName,
        });
  const chatRequest = {
    system,
    messages: [...request.history, { role: 'user' as const, content: request.text }],
    maxTokens: limits.maxTokens,
    temperature: limits.temperature,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  };
  let text = '';
  try {
    if (request.stream) {
      for await (const piece of chat.stream(chatRequest)) {
        text += piece;
        request.stream.delta(piece);
      }
    } else {
      text = (await chat.generate(chatRequest)).text;
    }
    text = text.trim();
    if (text === '') throw new ProviderError('provider/bad-response', 'The chat model sent an empty answer.');
  } catch (error) {
    const failure =
      error instanceof ProviderError
        ? { code: error.code, reason: error.message }
        : { code: 'provider/error', reason: 'The chat model call failed.' };
    request.stream?.reset();
    return fallbackReply(request, started, failure);
  }
  return reply(request, started, {
    engine,
    text,
    fallback: false,
    error: null,
    answerId: null,
  });
}
