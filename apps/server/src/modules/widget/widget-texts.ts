import {
  mapWidgetTexts,
  offersTranslation,
  primaryLanguageOf,
  publicWidgetConfig,
  type WidgetTexts,
  type WidgetTextsReply,
  widgetTextsOf,
} from '@omnibot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { StoredBot } from '../bots/bots.service';
import { type SpeechDeps, translatorFor } from '../speech/speech.service';

/** Translations kept in one server process: a bot's texts per configuration version and language. */
const CACHED_MAX = 500;
/** Texts translated at once, so one bot does not open dozens of provider calls together. */
const PARALLEL = 4;

async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The widget's own texts (welcome text, titles, buttons, menus) for a visitor's language: translated by the bot's
 * translator while it has automatic translation on, cached per bot configuration version and language (a new
 * configuration is translated afresh). The bot's own texts, `translated: false`, in its own language, without a
 * translator, or when the translator fails (logged; not cached, so a later request tries again).
 */
export function createWidgetTexts(deps: SpeechDeps & { log: FastifyBaseLogger }) {
  const cache = new Map<string, WidgetTexts>();

  const remember = (key: string, texts: WidgetTexts) => {
    cache.delete(key);
    cache.set(key, texts);
    if (cache.size > CACHED_MAX) cache.delete(cache.keys().next().value ?? key);
  };

  return async function widgetTextsFor(bot: StoredBot, language: string): Promise<WidgetTextsReply> {
    const { config, row } = bot;
    // Projected as out of hours, so the offline text of a bot that hands over is translated whatever the time.
    const own = widgetTextsOf(publicWidgetConfig(config, undefined, false));
    const home = config.language.default_language;
    if (
      !config.language.autoTranslate ||
      !offersTranslation(config) ||
      primaryLanguageOf(language) === primaryLanguageOf(home)
    ) {
      return { language: home, translated: false, texts: own };
    }
    const key = `${row.id}:${String(row.configVersion)}:${language}`;
    const cached = cache.get(key);
    if (cached !== undefined) {
      remember(key, cached);
      return { language, translated: true, texts: cached };
    }
    const originals = new Set<string>();
    mapWidgetTexts(own, (text) => {
      if (text.trim() !== '') originals.add(text);
      return text;
    });
    const translated = new Map<string, string>();
    try {
      const translator = await translatorFor(deps, row.tenantId, config);
      await eachLimited([...originals], PARALLEL, async (text) => {
        const result = await translator.translate({
          text,
          source: primaryLanguageOf(home),
          target: language,
        });
        translated.set(text, result.text);
      });
    } catch (error) {
      deps.log.warn({ err: error, bot: row.id, language }, 'widget texts were not translated');
      return { language: home, translated: false, texts: own };
    }
    const texts = mapWidgetTexts(own, (text) => translated.get(text) ?? text);
    remember(key, texts);
    return { language, translated: true, texts };
  };
}
