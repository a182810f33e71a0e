// Without zod (types only), so the browser widget can apply translated texts without carrying the schema library.
import type { PublicWidgetConfig, TextTranslateEngine, WidgetConfig } from './widget-config';

/** The translate engines answered by the bot's own chat model (`engines.model_id`). */
export const CHAT_TRANSLATE_ENGINES: readonly string[] = ['builtin', 'openai'];

type TranslatorConfig = Pick<WidgetConfig, 'engines' | 'libretranslate' | 'google' | 'aws'>;

/** The translator that translates text for a bot: its translate engine, or its fallback under `dialogflowcx`. */
export function textTranslatorOf(config: Pick<WidgetConfig, 'engines'>): TextTranslateEngine {
  const { translateEngine, translateFallback } = config.engines;
  return translateEngine === 'dialogflowcx' ? translateFallback : translateEngine;
}

/**
 * Whether a configuration has a translator: a chat model for `builtin` and `openai`, a LibreTranslate address for
 * `libretranslate`, a service account key or an API key for `google`, an access key and secret for `aws` (under
 * `dialogflowcx`, its fallback translator). Without one, automatic translation does nothing.
 */
export function offersTranslation(config: TranslatorConfig): boolean {
  const engine = textTranslatorOf(config);
  if (CHAT_TRANSLATE_ENGINES.includes(engine)) return config.engines.model_id !== null;
  if (engine === 'libretranslate') return config.libretranslate.url !== '';
  if (engine === 'google') return config.google.serviceAccountKey !== '' || config.google.apiKey !== '';
  return config.aws.key !== '' && config.aws.secret !== '';
}

/** The primary language of a code, lower case: `pt-BR` and `pt_br` are both `pt`. */
export const primaryLanguageOf = (code: string) => code.toLowerCase().split(/[-_]/u)[0] ?? code;

/**
 * The texts of a widget a visitor reads that the tenant wrote (names excepted), in the order they are listed; lists
 * keep their length. The server translates these, the widget puts them back with withWidgetTexts.
 */
export interface WidgetTexts {
  description: string;
  welcomeText: string;
  welcomeMenu: string[];
  popupMenu: string[];
  start_suggestions: string[];
  feedback: { button1Text: string; button2Text: string; button3Text: string; disclaimer: string };
  titles: {
    muteTitle: string;
    unMuteTitle: string;
    inputTitle: string;
    sendTitle: string;
    microphoneTitle: string;
    recognitionUnavailable: string;
  };
  closeText: string;
  /** What the widget says out of hours; '' when the bot hands over to nobody. */
  offlineText: string;
}

/** The widget texts of a public configuration. */
export function widgetTextsOf(config: PublicWidgetConfig): WidgetTexts {
  const { identity, welcome, feedback, titles, launcher } = config;
  return {
    description: identity.description,
    welcomeText: welcome.welcomeText,
    welcomeMenu: welcome.welcomeMenu.map((item) => item.label),
    popupMenu: welcome.popupMenu.map((item) => item.label),
    start_suggestions: [...welcome.start_suggestions],
    feedback: {
      button1Text: feedback.button1Text,
      button2Text: feedback.button2Text,
      button3Text: feedback.button3Text,
      disclaimer: feedback.disclaimer,
    },
    titles: { ...titles },
    closeText: launcher.openText,
    offlineText: config.liveAgent.offlineText ?? '',
  };
}

/** `texts` with each text replaced by `translate(text)`. */
export function mapWidgetTexts(texts: WidgetTexts, translate: (text: string) => string): WidgetTexts {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return translate(value);
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  return walk(texts) as WidgetTexts;
}

const pick = (translated: readonly string[], index: number, own: string) => {
  const text = translated[index];
  return text === undefined || text === '' ? own : text;
};

/**
 * The configuration with its visitor-facing texts replaced by `texts` (another language). A text missing or empty
 * keeps the configuration's own; menu items still send their own text, and a suggestion sends what it shows.
 */
export function withWidgetTexts(config: PublicWidgetConfig, texts: WidgetTexts): PublicWidgetConfig {
  const own = (value: string, translated: string) => (translated === '' ? value : translated);
  const { identity, welcome, feedback, titles, launcher, liveAgent } = config;
  return {
    ...config,
    liveAgent: {
      ...liveAgent,
      offlineText: liveAgent.offlineText === null ? null : own(liveAgent.offlineText, texts.offlineText),
    },
    identity: { ...identity, description: own(identity.description, texts.description) },
    welcome: {
      ...welcome,
      welcomeText: own(welcome.welcomeText, texts.welcomeText),
      welcomeMenu: welcome.welcomeMenu.map((item, index) => ({
        ...item,
        label: pick(texts.welcomeMenu, index, item.label),
      })),
      popupMenu: welcome.popupMenu.map((item, index) => ({
        ...item,
        label: pick(texts.popupMenu, index, item.label),
      })),
      start_suggestions: welcome.start_suggestions.map((text, index) =>
        pick(texts.start_suggestions, index, text),
      ),
    },
    feedback: {
      ...feedback,
      button1Text: own(feedback.button1Text, texts.feedback.button1Text),
      button2Text: own(feedback.button2Text, texts.feedback.button2Text),
      button3Text: own(feedback.button3Text, texts.feedback.button3Text),
      disclaimer: own(feedback.disclaimer, texts.feedback.disclaimer),
    },
    titles: Object.fromEntries(
      Object.entries(titles).map(([key, value]) => [
        key,
        own(value, texts.titles[key as keyof typeof titles]),
      ]),
    ) as typeof titles,
    launcher: { ...launcher, openText: own(launcher.openText, texts.closeText) },
  };
}
