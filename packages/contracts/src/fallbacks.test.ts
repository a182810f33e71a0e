import { describe, expect, it } from 'vitest';
import { RAG_DEFAULTS } from './rags';
import { WidgetConfigSchema } from './widget-config';

/** Wording that offers the visitor a person to talk to. */
const OFFERS_A_PERSON = /\b(?:person|human|agent|someone|staff|representative|colleague)\b/i;

describe('default texts while live agents are off', () => {
  const defaults = WidgetConfigSchema.parse({});

  it('a new bot has no live agent', () => {
    expect(defaults.engines.enableliveagent).toBe(false);
  });

  it.each<[string, string]>([
    ["the bot's fallback text", defaults.engines.fallbackText],
    ["a RAG's fallback text (said through the RAG API only)", RAG_DEFAULTS.fallback_text],
    ['the welcome text', defaults.welcome.welcomeText],
    ['the launcher info text', defaults.launcher.infoText],
    ...defaults.welcome.start_suggestions.map((text): [string, string] => ['a start suggestion', text]),
  ])('%s offers no person', (_name, text) => {
    expect(text).not.toMatch(OFFERS_A_PERSON);
  });
});
