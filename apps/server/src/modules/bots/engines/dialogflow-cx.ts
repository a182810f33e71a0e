import { randomUUID } from 'node:crypto';
import {
  type DialogflowAgent,
  dialogflowAgentFor,
  dialogflowLanguageOf,
  offersHandover,
} from '@omnibot/contracts';
import type { StoredDialogflowCxSettings } from '../../../db/schema';
import { refusalReasonFor } from '../../../lib/guarded-http/guarded-fetch';
import { SecretBoxError } from '../../../lib/secret-box';
import { openDialogflow, type OpenedDialogflow } from '../../integrations/dialogflow.service';
import {
  type DetectIntentResult,
  detectIntent,
  DialogflowError,
  sessionIdOf,
} from '../../integrations/providers/dialogflow-cx';
import type { AnswerDeps } from '../../rag/rag-answer';
import type { BotReply, BotRequest, BotTrace } from '../bot-reply';

/** What the Dialogflow engine hands back to the engine chooser: a reply, or the failure to answer with the fallback. */
export type DialogflowOutcome = { reply: BotReply } | { failure: NonNullable<BotTrace['error']> };

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10;

/** The session parameters: what the widget knows of the visitor. */
function parametersOf(request: BotRequest, language: string): Record<string, string> {
  return {
    language: request.language ?? language,
    ...(request.country ? { country: request.country } : {}),
  };
}

/**
 * Answers with a Dialogflow CX integration: detectIntent on the default agent (or the agent of the visitor's
 * language), then on the fallback agent when the default one fails. Every text message becomes a bot message;
 * links of a payload become a message of markdown links and other payloads are left out; a live-agent hand-off
 * asks for a person when the bot has live agents (and offers one otherwise while it may); no match answers with
 * the bot's fallback text and the reason. The session is the conversation's (a fresh one per message without one).
 */
export async function answerWithDialogflow(
  deps: AnswerDeps,
  request: BotRequest,
  stored: StoredDialogflowCxSettings,
  started: number,
): Promise<DialogflowOutcome> {
  let opened: OpenedDialogflow;
  try {
    opened = openDialogflow(deps.secretBox, stored);
  } catch (error) {
    if (error instanceof SecretBoxError) {
      return {
        failure: {
          code: 'integration/secret-unreadable',
          reason:
            'The stored service account key cannot be decrypted (the installation secret changed); upload it again.',
        },
      };
    }
    if (error instanceof DialogflowError) return { failure: { code: error.code, reason: error.reason } };
    throw error;
  }
  const { settings, credentials } = opened;
  const visitorLanguage = request.language ?? request.bot.config.language.default_language;
  const languageCode = dialogflowLanguageOf(settings, visitorLanguage);
  const primary = dialogflowAgentFor(settings, languageCode);
  const fallback = settings.agents.find((agent) => agent.agentName === settings.fallback_agent);
  const agents = [primary, fallback].filter(
    (agent, index, all): agent is DialogflowAgent => agent !== undefined && all.indexOf(agent) === index,
  );
  const sessionId = sessionIdOf(request.conversationId ?? randomUUID());
  const failures: string[] = [];
  let lastCode = 'provider/error';
  for (const agent of agents) {
    let result: DetectIntentResult;
    try {
      result = await detectIntent(
        credentials,
        {
          fetch: deps.modelFetch,
          timeoutMs: deps.modelTimeoutMs,
          ...(request.signal === undefined ? {} : { signal: request.signal }),
        },
        {
          agent,
          settings,
          sessionId,
          text: request.text,
          languageCode,
          parameters: parametersOf(request, languageCode),
        },
      );
    } catch (error) {
      if (!(error instanceof DialogflowError)) throw error;
      lastCode = error.code;
      failures.push(`${agent.agentName}: ${refusalReasonFor(error.fetchCode ?? '', error.reason, null)}`);
      continue;
    }
    return { reply: replyOf(request, agent, result, failures, started) };
  }
  return { failure: { code: lastCode, reason: failures.join(' Then ') || 'No Dialogflow agent is set.' } };
}

function replyOf(
  request: BotRequest,
  agent: DialogflowAgent,
  result: DetectIntentResult,
  failures: string[],
  started: number,
): BotReply {
  const { config } = request.bot;
  const canHandOver = offersHandover(config);
  const earlier = failures.length === 0 ? null : failures.join(' Then ');
  if (result.noMatch || (result.texts.length === 0 && !result.liveAgentHandoff && !result.endInteraction)) {
    const text = config.engines.fallbackText;
    request.stream?.delta(text);
    const why = result.noMatch
      ? `The Dialogflow agent ${agent.agentName} matched no intent.`
      : `The Dialogflow agent ${agent.agentName} sent no text to show.`;
    return {
      messages: [{ type: 'text', text }],
      sources: [],
      fallback: true,
      handoverOffered: canHandOver,
      handoverRequested: result.liveAgentHandoff && canHandOver,
      trace: {
        engine: 'dialogflowcx',
        error: { code: 'dialogflow/no-match', reason: earlier === null ? why : `${earlier} Then ${why}` },
        answerId: null,
        ms: elapsed(started),
      },
    };
  }
  request.stream?.delta(result.texts.join('\n\n'));
  return {
    messages: result.texts.map((text) => ({ type: 'text', text })),
    sources: [],
    fallback: false,
    // A hand-off the bot cannot start (no live agents, out of hours) is at most offered.
    handoverOffered: result.liveAgentHandoff && canHandOver,
    handoverRequested: result.liveAgentHandoff && canHandOver,
    ...(result.languageCode === null ? {} : { language: languageOf(request, result.languageCode) }),
    trace: {
      engine: 'dialogflowcx',
      // The default agent failed and the fallback agent answered: why is kept.
      error: earlier === null ? null : { code: 'dialogflow/fallback-agent', reason: earlier },
      answerId: null,
      ms: elapsed(started),
    },
  };
}

/** The language of the answer: the request's when the agent answered in it (en-us for en), else the agent's. */
function languageOf(request: BotRequest, answered: string): string {
  const asked = request.language;
  if (asked !== undefined && asked.toLowerCase().split('-')[0] === answered.toLowerCase().split('-')[0]) {
    return asked;
  }
  return answered;
}
