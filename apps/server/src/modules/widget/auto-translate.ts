import type { FastifyBaseLogger } from 'fastify';
import type { BotEngine, BotReply, BotRequest } from '../bots/bot-engine';
import { type SpeechDeps, translatorFor, widgetServices } from '../speech/speech.service';
import type { Translator } from '../speech/translator';

/** The primary language of a code, lower case: `pt-BR` and `pt_br` are both `pt`. */
const primaryOf = (code: string) => code.toLowerCase().split(/[-_]/u)[0] ?? code;

/**
 * The `dialogflowcx` translate engine: the Dialogflow CX agent is asked in the visitor's language and answers in it
 * when it supports it (its reply names that language); an answer in another language is translated by the fallback
 * translator, or left as it is when that fails.
 */
async function agentInVisitorLanguage(
  deps: { log: FastifyBaseLogger },
  engine: BotEngine,
  translator: Translator,
  request: BotRequest,
  visitor: string,
): Promise<BotReply> {
  const answer = await engine.respond({ ...request, language: visitor, stream: undefined });
  const answered = answer.language ?? visitor;
  if (primaryOf(answered) === primaryOf(visitor)) {
    request.stream?.delta(answer.messages.map((message) => message.text).join('\n\n'));
    return { ...answer, language: answered };
  }
  try {
    const messages = await Promise.all(
      answer.messages.map(async (message) => ({
        ...message,
        text: (
          await translator.translate({
            text: message.text,
            target: visitor,
            source: answered,
            signal: request.signal,
          })
        ).text,
      })),
    );
    request.stream?.delta(messages.map((message) => message.text).join('\n\n'));
    return { ...answer, messages, language: visitor };
  } catch (error) {
    deps.log.warn(
      { err: error, bot: request.bot.row.id },
      "auto-translation of an agent's answer failed: answered in the agent's language",
    );
    request.stream?.delta(answer.messages.map((message) => message.text).join('\n\n'));
    return { ...answer, language: answered };
  }
}

/**
 * A bot engine that speaks the visitor's language when the bot has autoTranslate on and a translator: the
 * question's language is detected and the question translated into the bot's default language, the bot answers
 * in that language (not streamed: only the whole answer can be translated), and the answer is translated back. A
 * question already in the bot's language is answered as usual, streamed. A translator that fails leaves the
 * question and answer as they were (logged), so a visitor always gets an answer.
 */
export function autoTranslating(deps: SpeechDeps & { log: FastifyBaseLogger }, engine: BotEngine): BotEngine {
  return {
    async respond(request: BotRequest): Promise<BotReply> {
      const { config, row } = request.bot;
      if (!config.language.autoTranslate || !widgetServices(config).translate) return engine.respond(request);
      const home = config.language.default_language;
      // The Dialogflow CX agent is asked in the visitor's language: only the language is detected first.
      const agentTranslates =
        config.engines.translateEngine === 'dialogflowcx' && config.engines.botEngine === 'dialogflowcx';
      let translator: Translator;
      let question;
      try {
        translator = await translatorFor(deps, row.tenantId, config);
        question = await translator.translate({
          text: request.text,
          target: agentTranslates ? null : home,
          signal: request.signal,
        });
      } catch (error) {
        deps.log.warn(
          { err: error, bot: row.id },
          'auto-translation of a question failed: answered untranslated',
        );
        return engine.respond(request);
      }
      if (primaryOf(question.detected) === primaryOf(home)) return engine.respond(request);
      if (agentTranslates) {
        return agentInVisitorLanguage(deps, engine, translator, request, question.detected);
      }

      const answer = await engine.respond({
        ...request,
        text: question.text,
        language: home,
        stream: undefined,
      });
      try {
        const texts = await Promise.all(
          answer.messages.map(
            async (message) =>
              (
                await translator.translate({
                  text: message.text,
                  target: question.detected,
                  signal: request.signal,
                })
              ).text,
          ),
        );
        const messages = answer.messages.map((message, index) => ({
          ...message,
          text: texts[index] ?? message.text,
        }));
        const whole = messages.map((message) => message.text).join('\n\n');
        request.stream?.delta(whole);
        return { ...answer, messages, language: question.detected };
      } catch (error) {
        deps.log.warn(
          { err: error, bot: row.id },
          'auto-translation of an answer failed: answered in the bot language',
        );
        request.stream?.delta(answer.messages.map((message) => message.text).join('\n\n'));
        return { ...answer, language: home };
      }
    },
  };
}
