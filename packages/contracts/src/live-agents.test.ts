import { describe, expect, it } from 'vitest';
import { LiveMessageSchema, UpdateAgentPreferencesBodySchema } from './live-agents';

describe('live messages and the agent language', () => {
  it('reads a message without translation as before, and one with its translation', () => {
    const plain = { id: 'm1', role: 'agent', text: 'Hello', author: 'Ann', at: '2026-01-01T10:00:00.000Z' };
    expect(LiveMessageSchema.parse(plain)).toEqual(plain);
    const translated = {
      ...plain,
      language: 'en',
      translation: { text: 'Bonjour', language: 'fr' },
    };
    expect(LiveMessageSchema.parse(translated)).toEqual(translated);
    expect(LiveMessageSchema.parse({ ...plain, untranslated: true }).untranslated).toBe(true);
    expect(LiveMessageSchema.safeParse({ ...plain, translation: { text: 'Bonjour' } }).success).toBe(false);
  });

  it('takes a language code for the agent, nothing else', () => {
    expect(UpdateAgentPreferencesBodySchema.parse({ language: 'pt-BR' })).toEqual({ language: 'pt-BR' });
    for (const body of [{}, { language: '' }, { language: 'not a code' }, { language: 'en', extra: 1 }]) {
      expect(UpdateAgentPreferencesBodySchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
    }
  });
});
