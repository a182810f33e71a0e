import { describe, expect, it } from 'vitest';
import { CreateModelBodySchema, ModelBaseUrlSchema, UpdateModelBodySchema } from './models';

const valid = { name: 'Chat', kind: 'chat', base_url: 'https://api.example.com/v1', model_name: 'gpt-x' };

describe('model contracts', () => {
  it('fills the defaults: 1024 tokens, temperature 0.7, shared with nobody', () => {
    expect(CreateModelBodySchema.parse(valid)).toEqual({
      ...valid,
      max_tokens: 1024,
      temperature: 0.7,
      sharing: { all: false, tenant_ids: [] },
    });
  });

  it.each([
    'http://localhost:11434/v1',
    'https://api.openai.com/v1',
    'http://[::1]:8080',
    ' https://trimmed.example.com ',
  ])('accepts the base URL %s', (url) => {
    expect(ModelBaseUrlSchema.safeParse(url).success).toBe(true);
  });

  it.each([
    '',
    'api.example.com/v1',
    'ftp://example.com',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'https://user:secret@example.com/v1',
    'https://example.com/\u0000',
    `https://example.com/${'a'.repeat(2000)}`,
  ])('refuses the base URL %j', (url) => {
    expect(ModelBaseUrlSchema.safeParse(url).success).toBe(false);
  });

  it('refuses out-of-range limits, control characters, unknown fields and a kind change', () => {
    for (const body of [
      { ...valid, temperature: 2.01 },
      { ...valid, max_tokens: 32769 },
      { ...valid, name: 'a\u0007b' },
      { ...valid, api_key: 'has space' },
      { ...valid, extra: true },
    ]) {
      expect(CreateModelBodySchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
    }
    expect(UpdateModelBodySchema.safeParse({ kind: 'embedding' }).success).toBe(false);
    expect(UpdateModelBodySchema.parse({ api_key: null })).toEqual({ api_key: null });
  });
});
