import type { FastifyBaseLogger } from 'fastify';
import type { BotEngine, BotReply, BotRequest } from '../bots/bot-engine';
import { type SpeechDeps, translatorFor, widgetServices } from '../speech/speech.service';
import type { Translator } from '../speech/translator';

/** The primary language of a code, lower case: `pt-BR` and `pt_br` are both `pt`. */
const primaryOf = (code: string) => code.toLowerCase().split(/[-_]/u)[0] ?? code;

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
      let translator: Translator;
      let question;
      try {
        translator = await translatorFor(deps, row.tenantId, config);
        question = await translator.translate({ text: request.text, target: home, signal: request.signal });
      } catch (error) {
        deps.log.warn(
          { err: error, bot: row.id },
          'auto-translation of a question failed: answered untranslated',
        );
        return engine.respond(request);
      }
      if (primaryOf(question.detected) === primaryOf(home)) return engine.respond(request);

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
