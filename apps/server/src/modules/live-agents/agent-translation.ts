import { DEFAULT_AGENT_LANGUAGE, maskText, primaryLanguageOf, type WidgetConfig } from '@omnibot/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { agentPreferences, type ConversationRow } from '../../db/schema';
import { type BotsDeps, openedBotOf, type StoredBot } from '../bots/bots.service';
import { type SpeechDeps, translatorFor, widgetServices } from '../speech/speech.service';
import type { InboxAgent, MessageTranslation } from './handover.service';

export interface LiveTranslationDeps {
  /** The bots' translators (the same ones automatic translation of bot answers uses). */
  speech: SpeechDeps;
  /** Opens the configuration of a conversation's bot (its translator's API key). */
  bots: BotsDeps;
  /** Upper bound of one translation of a live message: the person or visitor waits for it before it is sent. */
  timeoutMs: number;
  log: FastifyBaseLogger;
}

/** The language a person reads visitors' messages in and writes in: their choice, else the default. */
export async function agentLanguageOf(db: Db, tenantId: string, userId: string): Promise<string> {
  const [row] = await db
    .select({ language: agentPreferences.language })
    .from(agentPreferences)
    .where(and(eq(agentPreferences.tenantId, tenantId), eq(agentPreferences.userId, userId)))
    .limit(1);
  return row?.language ?? DEFAULT_AGENT_LANGUAGE;
}

/** Stores the language the signed-in person works in (their own preference; nobody else's). */
export async function saveAgentLanguage(db: Db, agent: InboxAgent, language: string): Promise<string> {
  await db
    .insert(agentPreferences)
    .values({ userId: agent.userId, tenantId: agent.tenantId, language })
    .onConflictDoUpdate({
      target: agentPreferences.userId,
      set: { language, updatedAt: new Date() },
      // A preference row belongs to the person's organisation; it is never moved to another one.
      setWhere: eq(agentPreferences.tenantId, agent.tenantId),
    });
  return language;
}

/** Whether a bot translates between its visitors and the people answering them: switched on, with a translator. */
export const translatesForAgents = (config: WidgetConfig): boolean =>
  config.language.autoAgentTranslate && widgetServices(config).translate;

/**
 * One message translated by the bot's translator, the bot's masks applied to what is sent (as to what its engines
 * receive). A translator that fails or does not answer within the time limit costs nothing but the translation: the
 * message is marked untranslated and goes as it was written.
 */
async function translateLive(
  deps: LiveTranslationDeps,
  bot: StoredBot,
  text: string,
  languages: { source?: string; target: string },
): Promise<MessageTranslation> {
  const { config, row } = bot;
  const { enableMasking, patterns, maskCharacter } = config.masking;
  const sent = enableMasking ? maskText(text, patterns, maskCharacter) : text;
  try {
    const translator = await translatorFor(
      { ...deps.speech, timeoutMs: deps.timeoutMs },
      row.tenantId,
      config,
    );
    const result = await translator.translate({
      text: sent,
      target: languages.target,
      ...(languages.source === undefined ? {} : { source: languages.source }),
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
    if (primaryLanguageOf(result.detected) === primaryLanguageOf(languages.target)) {
      return { language: result.detected, translation: null, failed: false };
    }
    return {
      language: result.detected,
      translation: { text: result.text, language: languages.target },
      failed: false,
    };
  } catch (error) {
    deps.log.warn(
      { err: error, bot: row.id },
      'translation of a live message failed: it was sent untranslated',
    );
    return { language: languages.source ?? null, translation: null, failed: true };
  }
}

/**
 * A visitor's message to the person holding the conversation, in that person's language (the bot's default
 * language while it waits for one); null when the bot does not translate for its agents.
 */
export async function visitorTextForAgent(
  deps: LiveTranslationDeps,
  bot: StoredBot,
  conversation: ConversationRow,
  text: string,
): Promise<MessageTranslation | null> {
  if (!translatesForAgents(bot.config)) return null;
  const target =
    conversation.state === 'agent' && conversation.agentId !== null
      ? await agentLanguageOf(deps.speech.db, conversation.tenantId, conversation.agentId)
      : bot.config.language.default_language;
  return translateLive(deps, bot, text, { target });
}

/**
 * An agent's message in the visitor's language (the conversation's), written in the agent's own language; null when
 * the bot does not translate for its agents or both speak the same language.
 */
export async function agentTextForVisitor(
  deps: LiveTranslationDeps,
  agent: InboxAgent,
  conversation: ConversationRow,
  text: string,
): Promise<MessageTranslation | null> {
  const bot = await openedBotOf(deps.bots, conversation.tenantId, conversation.botId);
  if (bot === null || !translatesForAgents(bot.config)) return null;
  const source = await agentLanguageOf(deps.speech.db, agent.tenantId, agent.userId);
  if (primaryLanguageOf(source) === primaryLanguageOf(conversation.language)) return null;
  return translateLive(deps, bot, text, { source, target: conversation.language });
}
