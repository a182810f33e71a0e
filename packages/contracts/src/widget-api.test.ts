import { describe, expect, it } from 'vitest';
import { FeedbackBodySchema, IntentBodySchema, LanguageBodySchema, TtsBodySchema } from './widget-api';
import { VISITOR_TEXT_MAX } from './widget-protocol';

const botId = '7f9c2a4e-1b3d-4c5e-8f6a-0b1c2d3e4f5a';

describe('widget API bodies', () => {
  it('accept a first message without a conversation token', () => {
    expect(IntentBodySchema.parse({ botId, text: 'Hello', language: 'pt-BR' })).toEqual({
      botId,
      text: 'Hello',
      language: 'pt-BR',
    });
  });

  it.each([
    ['an unknown field', { botId, text: 'Hi', conversationId: 'mine' }],
    ['a bot id that is not a uuid', { botId: '1 OR 1=1', text: 'Hi' }],
    ['blank text', { botId, text: '   ' }],
    ['text over the limit', { botId, text: 'x'.repeat(VISITOR_TEXT_MAX + 1) }],
    ['a language that is not a code', { botId, text: 'Hi', language: 'english please' }],
    ['an overlong token', { botId, text: 'Hi', conversationToken: 't'.repeat(600) }],
  ])('refuse %s', (_label, body) => {
    expect(IntentBodySchema.safeParse(body).success).toBe(false);
  });

  it('feedback takes one of the three buttons and an optional bounded comment', () => {
    const base = { botId, conversationToken: 'token', messageId: botId };
    expect(FeedbackBodySchema.safeParse({ ...base, rating: 'button2' }).success).toBe(true);
    expect(FeedbackBodySchema.safeParse({ ...base, rating: 'button4' }).success).toBe(false);
    expect(
      FeedbackBodySchema.safeParse({ ...base, rating: 'button1', comment: 'c'.repeat(1001) }).success,
    ).toBe(false);
    expect(FeedbackBodySchema.safeParse({ ...base, rating: 'button1', messageId: 'x' }).success).toBe(false);
  });

  it('language and speech bodies share the text limit', () => {
    const long = 'x'.repeat(VISITOR_TEXT_MAX + 1);
    expect(LanguageBodySchema.safeParse({ botId, text: long }).success).toBe(false);
    expect(TtsBodySchema.safeParse({ botId, text: long }).success).toBe(false);
    expect(LanguageBodySchema.safeParse({ botId, text: 'Bonjour', target: 'en' }).success).toBe(true);
  });
});
