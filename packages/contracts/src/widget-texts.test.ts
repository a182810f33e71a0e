import { describe, expect, it } from 'vitest';
import { publicWidgetConfig, WidgetConfigSchema } from './widget-config';
import {
  mapWidgetTexts,
  offersTranslation,
  primaryLanguageOf,
  widgetTextsOf,
  withWidgetTexts,
} from './widget-texts';

describe('offersTranslation', () => {
  const config = (input: Record<string, unknown>) => WidgetConfigSchema.parse(input);
  it.each([
    ['no translator by default', {}, false],
    ['a chat model for the builtin translate engine', { engines: { model_id: crypto.randomUUID() } }, true],
    [
      'a chat model for the openai translate engine',
      { engines: { translateEngine: 'openai', model_id: crypto.randomUUID() } },
      true,
    ],
    ['a LibreTranslate engine without an address', { engines: { translateEngine: 'libretranslate' } }, false],
    [
      'a LibreTranslate address',
      { engines: { translateEngine: 'libretranslate' }, libretranslate: { url: 'https://t.example.com' } },
      true,
    ],
    [
      'Google without a key',
      { engines: { translateEngine: 'google', model_id: crypto.randomUUID() } },
      false,
    ],
    [
      'Google with an API key',
      { engines: { translateEngine: 'google' }, google: { apiKey: 'AIza-key' } },
      true,
    ],
    ['AWS without a secret', { engines: { translateEngine: 'aws' }, aws: { key: 'AKIA1' } }, false],
    [
      'AWS with a key and secret',
      { engines: { translateEngine: 'aws' }, aws: { key: 'AKIA1', secret: 's' } },
      true,
    ],
    [
      'Dialogflow CX leaving text to a chat model',
      { engines: { translateEngine: 'dialogflowcx', model_id: crypto.randomUUID() } },
      true,
    ],
    [
      'Dialogflow CX leaving text to an unconfigured LibreTranslate',
      { engines: { translateEngine: 'dialogflowcx', translateFallback: 'libretranslate' } },
      false,
    ],
  ])('%s', (_name, input, expected) => {
    expect(offersTranslation(config(input))).toBe(expected);
  });

  it('compares primary languages', () => {
    expect(primaryLanguageOf('pt-BR')).toBe('pt');
    expect(primaryLanguageOf('PT_br')).toBe('pt');
  });
});

describe('widget texts', () => {
  const config = publicWidgetConfig(
    WidgetConfigSchema.parse({
      welcome: {
        welcomeText: 'Welcome',
        welcomeMenu: [{ label: 'Hours', text: 'When are you open?' }],
        popupMenu: [{ label: 'Returns', text: 'How do I return?' }],
        start_suggestions: ['Track', 'Pay'],
      },
      identity: { description: 'Shop help' },
    }),
  );

  it('round-trip: every text replaced, menu items still sending their own text', () => {
    const marked = mapWidgetTexts(widgetTextsOf(config), (text) => `[de] ${text}`);
    const shown = withWidgetTexts(config, marked);
    expect(shown.welcome.welcomeText).toBe('[de] Welcome');
    expect(shown.identity.description).toBe('[de] Shop help');
    expect(shown.welcome.welcomeMenu).toEqual([{ label: '[de] Hours', text: 'When are you open?' }]);
    expect(shown.welcome.popupMenu).toEqual([{ label: '[de] Returns', text: 'How do I return?' }]);
    expect(shown.welcome.start_suggestions).toEqual(['[de] Track', '[de] Pay']);
    expect(shown.titles.sendTitle).toBe('[de] Send');
    expect(shown.feedback.button3Text).toBe('[de] Not helpful');
    expect(shown.launcher.openText).toBe('[de] Close');
    expect(shown.identity.botName).toBe(config.identity.botName);
  });

  it('keeps the configured text where a translation is missing or empty', () => {
    const texts = widgetTextsOf(config);
    const partial = {
      ...texts,
      welcomeText: '',
      start_suggestions: ['Verfolgen'],
      titles: { ...texts.titles, sendTitle: '' },
    };
    const shown = withWidgetTexts(config, partial);
    expect(shown.welcome.welcomeText).toBe('Welcome');
    expect(shown.welcome.start_suggestions).toEqual(['Verfolgen', 'Pay']);
    expect(shown.titles.sendTitle).toBe('Send');
  });
});
