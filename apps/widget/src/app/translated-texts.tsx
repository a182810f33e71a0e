import {
  primaryLanguageOf,
  type PublicWidgetConfig,
  type WidgetTexts,
  withWidgetTexts,
} from '@omnibot/contracts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Chat, type ChatProps } from './chat';

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
const textOf = (value: unknown) => (typeof value === 'string' ? value : '');
const textsOf = (value: unknown) => (Array.isArray(value) ? (value as unknown[]).map(textOf) : []);

/**
 * The translated texts of a `GET /v1/widget/:botId/texts` answer, or null when they are the bot's own. Read field by
 * field: anything missing or of another type is '' (the configured text is kept for it).
 */
export function readWidgetTexts(body: unknown): WidgetTexts | null {
  const reply = fieldsOf(body);
  if (reply.translated !== true) return null;
  const texts = fieldsOf(reply.texts);
  const feedback = fieldsOf(texts.feedback);
  const titles = fieldsOf(texts.titles);
  return {
    description: textOf(texts.description),
    welcomeText: textOf(texts.welcomeText),
    welcomeMenu: textsOf(texts.welcomeMenu),
    popupMenu: textsOf(texts.popupMenu),
    start_suggestions: textsOf(texts.start_suggestions),
    feedback: {
      button1Text: textOf(feedback.button1Text),
      button2Text: textOf(feedback.button2Text),
      button3Text: textOf(feedback.button3Text),
      disclaimer: textOf(feedback.disclaimer),
    },
    titles: {
      muteTitle: textOf(titles.muteTitle),
      unMuteTitle: textOf(titles.unMuteTitle),
      inputTitle: textOf(titles.inputTitle),
      sendTitle: textOf(titles.sendTitle),
      microphoneTitle: textOf(titles.microphoneTitle),
      recognitionUnavailable: textOf(titles.recognitionUnavailable),
    },
    closeText: textOf(texts.closeText),
    offlineText: textOf(texts.offlineText),
  };
}

/** The bot's own texts in `language`, or null when the server has none translated (or cannot be reached). */
async function fetchWidgetTexts(
  apiBase: string,
  botId: string,
  language: string,
): Promise<WidgetTexts | null> {
  const query = new URLSearchParams({ language }).toString();
  const response = await fetch(`${apiBase}/v1/widget/${encodeURIComponent(botId)}/texts?${query}`);
  if (!response.ok) return null;
  return readWidgetTexts(await response.json());
}

/**
 * The configuration with the widget's own texts (welcome text, menus, suggestions, buttons, titles) in the visitor's
 * language while the bot translates automatically; the configured texts in the bot's own language, until the
 * translation arrives, and when it cannot be had.
 */
function useTranslatedConfig(
  config: PublicWidgetConfig,
  options: { apiBase: string; botId: string; language: string | null; enabled: boolean },
): PublicWidgetConfig {
  const { apiBase, botId, language, enabled } = options;
  const [loaded, setLoaded] = useState<{ language: string; texts: WidgetTexts } | null>(null);
  const wanted =
    enabled &&
    botId !== '' &&
    language !== null &&
    primaryLanguageOf(language) !== primaryLanguageOf(config.language.default_language)
      ? language
      : null;

  useEffect(() => {
    if (wanted === null) return;
    let current = true;
    fetchWidgetTexts(apiBase, botId, wanted).then(
      (texts) => {
        if (current && texts !== null) setLoaded({ language: wanted, texts });
      },
      // Unreachable or refused: the configured texts stay, and the next language change asks again.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [apiBase, botId, wanted]);

  return useMemo(
    () => (wanted !== null && loaded?.language === wanted ? withWidgetTexts(config, loaded.texts) : config),
    [config, wanted, loaded],
  );
}

/** The chat window, its own texts in the language the visitor reads it in when the bot translates. */
export function TranslatedChat(props: ChatProps) {
  const { apiBase, botId, config, preview = false } = props;
  const [language, setLanguage] = useState<string | null>(null);
  const shown = useTranslatedConfig(config, {
    apiBase,
    botId,
    language,
    enabled: !preview && config.services.translate && config.language.autoTranslate,
  });
  const onLanguageChange = useCallback((next: string) => setLanguage(next), []);
  return <Chat {...props} config={shown} onLanguageChange={onLanguageChange} />;
}
