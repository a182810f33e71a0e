import { describe, expect, it } from 'vitest';
import { BOT_TEMPLATE_GROUPS, CreateBotTemplateBodySchema, templateConfigOf } from './bot-templates';
import {
  CreateIntegrationBodySchema,
  isMaskedApiKey,
  TestIntegrationBodySchema,
  UpdateIntegrationBodySchema,
} from './integrations';
import { WidgetConfigSchema } from './widget-config';

const MARKER = 'TEMPLATE-SECRET-MARKER';

describe('templateConfigOf', () => {
  it('keeps the look and texts of a bot and nothing else', () => {
    const config = WidgetConfigSchema.parse({
      identity: { displayName: 'Shop desk' },
      launcher: { position: 'left' },
      engines: { fallbackText: 'No idea', rag_id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d' },
      install: { allowedOrigins: ['https://shop.example.com'] },
      openai: { apiKey: MARKER },
      aws: { key: MARKER, secret: MARKER },
      genesys: { clientSecret: MARKER },
      google: { serviceAccountKey: MARKER },
    });
    const template = templateConfigOf(config);
    expect(Object.keys(template).sort()).toEqual([...BOT_TEMPLATE_GROUPS].sort());
    expect(template.identity.displayName).toBe('Shop desk');
    expect(template.launcher.position).toBe('left');
    const text = JSON.stringify(template);
    for (const hidden of [MARKER, 'shop.example.com', 'No idea', 'rag_id', 'allowedOrigins']) {
      expect(text).not.toContain(hidden);
    }
  });

  it('gives a missing group its defaults', () => {
    const defaults = WidgetConfigSchema.parse({});
    const template = templateConfigOf({ ...defaults, window: undefined });
    expect(template.window).toEqual({ width: 450, height: 750 });
  });

  it('needs a bot id and refuses unknown fields', () => {
    expect(CreateBotTemplateBodySchema.safeParse({ name: 'Look' }).success).toBe(false);
    expect(
      CreateBotTemplateBodySchema.safeParse({
        name: 'Look',
        bot_id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
        config: {},
      }).success,
    ).toBe(false);
  });
});

describe('integration bodies', () => {
  const openai = { base_url: 'https://llm.example.com/v1', model: 'gpt-test' };

  it('takes each engine with its own settings and the model defaults', () => {
    const parsed = CreateIntegrationBodySchema.parse({ name: 'GPT', engine: 'openai', settings: openai });
    expect(parsed).toEqual({
      name: 'GPT',
      kind: 'chatbot',
      engine: 'openai',
      settings: { ...openai, api_key: '', max_tokens: 1024, temperature: 0.7 },
    });
    const builtin = {
      name: 'RAG',
      engine: 'builtin',
      settings: { rag_id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d' },
    };
    expect(CreateIntegrationBodySchema.parse(builtin).engine).toBe('builtin');
  });

  it.each([
    ['an unknown engine', { name: 'x', engine: 'eliza', settings: {} }],
    ['builtin settings under openai', { name: 'x', engine: 'openai', settings: { rag_id: 'x' } }],
    [
      'a base URL with credentials',
      { name: 'x', engine: 'openai', settings: { ...openai, base_url: 'https://a:b@x.test' } },
    ],
    [
      'a javascript: URL',
      { name: 'x', engine: 'openai', settings: { ...openai, base_url: 'javascript:alert(1)' } },
    ],
    ['a key with a space', { name: 'x', engine: 'openai', settings: { ...openai, api_key: 'a b' } }],
    ['a tenant id', { name: 'x', engine: 'openai', settings: openai, tenant_id: 't' }],
    ['a contact-centre kind', { name: 'x', kind: 'ccaas', engine: 'openai', settings: openai }],
  ])('refuses %s', (_label, body) => {
    expect(CreateIntegrationBodySchema.safeParse(body).success).toBe(false);
  });

  it('changes the settings of the same engine only, and tries settings with an optional id', () => {
    expect(UpdateIntegrationBodySchema.safeParse({ engine: 'builtin' }).success).toBe(false);
    expect(UpdateIntegrationBodySchema.safeParse({ settings: openai }).success).toBe(true);
    expect(
      TestIntegrationBodySchema.safeParse({ id: 'nope', engine: 'openai', settings: openai }).success,
    ).toBe(false);
  });

  it('knows a masked key', () => {
    expect(isMaskedApiKey('****wxyz')).toBe(true);
    expect(isMaskedApiKey('sk-live')).toBe(false);
  });
});
