import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createConversationTokens } from './conversation-token';

const SECRET = 'an-installation-secret-of-enough-length-0123456789';

describe('conversation tokens', () => {
  const tokens = createConversationTokens(SECRET);
  const conversation = randomUUID();
  const bot = randomUUID();

  it('gives back the conversation of a token issued for the same bot', () => {
    const token = tokens.sign(conversation, bot);
    expect(token.length).toBeLessThan(512);
    expect(tokens.verify(token, bot)).toBe(conversation);
  });

  it('refuses a token of another bot, another installation, or altered anywhere', () => {
    const token = tokens.sign(conversation, bot);
    expect(tokens.verify(token, randomUUID())).toBeNull();
    expect(createConversationTokens(`${SECRET}x`).verify(token, bot)).toBeNull();
    for (let i = 0; i < token.length; i++) {
      for (const replacement of ['A', 'f', '0', '_', '.']) {
        if (token[i] === replacement) continue;
        const altered = `${token.slice(0, i)}${replacement}${token.slice(i + 1)}`;
        expect(tokens.verify(altered, bot), altered).toBeNull();
      }
    }
    for (const bad of [
      '',
      '.',
      'c1..',
      `c1.${conversation}.`,
      `${token}.x`,
      token.toUpperCase(),
      `${token}=`,
    ]) {
      expect(tokens.verify(bad, bot), bad).toBeNull();
    }
  });
});
