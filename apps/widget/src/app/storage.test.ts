import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from './chat-types';
import { SAVED_CHAT_MAX } from '@omnibot/contracts';
import { loadChat, readSavedChat, saveChat, savedChatText } from './storage';

afterEach(() => sessionStorage.clear());

const message = (change: Partial<ChatMessage>): ChatMessage => ({
  key: 'k1',
  role: 'user',
  text: 'Hello',
  status: 'sent',
  sources: [],
  ...change,
});

describe('the saved conversation', () => {
  it('round-trips messages, token and language per bot, leaving out a half-streamed answer', () => {
    const messages = [
      message({ id: 'm1' }),
      message({
        key: 'k2',
        role: 'bot',
        text: 'Hi',
        id: 'm2',
        feedback: 'button1',
        sources: [{ n: 1, title: 'A', url: null }],
      }),
      message({ key: 'k3', role: 'bot', text: 'Hal', status: 'streaming' }),
    ];
    saveChat(sessionStorage, 'bot-a', { conversationToken: 'tok', language: 'fr', messages });
    const loaded = loadChat(sessionStorage, 'bot-a');
    expect(loaded?.conversationToken).toBe('tok');
    expect(loaded?.language).toBe('fr');
    expect(loaded?.messages.map((saved) => saved.key)).toEqual(['k1', 'k2']);
    expect(loaded?.messages[1]).toMatchObject({
      feedback: 'button1',
      sources: [{ n: 1, title: 'A', url: null }],
    });
    expect(loadChat(sessionStorage, 'bot-b')).toBeNull();
  });

  it("keeps a person's messages under their name, system lines, and the live state with its last event id", () => {
    const messages = [
      message({ key: 'k1', role: 'agent', author: 'Anna', text: 'Hi', id: 'm1' }),
      message({ key: 'k2', role: 'system', text: 'The conversation has ended.', status: 'notice' }),
    ];
    const live = { state: 'agent' as const, agent: 'Anna', lastEventId: '42' };
    saveChat(sessionStorage, 'bot-a', { conversationToken: 'tok', messages, live });
    const loaded = loadChat(sessionStorage, 'bot-a');
    expect(loaded?.messages).toMatchObject([
      { role: 'agent', author: 'Anna', text: 'Hi' },
      { role: 'system', text: 'The conversation has ended.' },
    ]);
    expect(loaded?.live).toEqual(live);
    const tampered = JSON.stringify({ messages: [], live: { state: 'agent', agent: 7, lastEventId: '4x' } });
    expect(readSavedChat(tampered)?.live).toEqual({ state: 'agent', agent: null, lastEventId: null });
    expect(readSavedChat(JSON.stringify({ messages: [], live: { state: 'gone' } }))?.live).toBeUndefined();
  });

  it('turns a message that was still sending into a failed one the visitor can retry', () => {
    saveChat(sessionStorage, 'bot-a', { messages: [message({ status: 'sending' })] });
    expect(loadChat(sessionStorage, 'bot-a')?.messages[0]).toMatchObject({ status: 'failed', text: 'Hello' });
  });

  it('ignores unreadable or tampered storage', () => {
    sessionStorage.setItem('omnibot:chat:bot-a', '{not json');
    expect(loadChat(sessionStorage, 'bot-a')).toBeNull();
    sessionStorage.setItem(
      'omnibot:chat:bot-a',
      JSON.stringify({
        conversationToken: 5,
        messages: [{ key: 'x', role: 'admin', text: 'x', status: 'sent' }, 7],
      }),
    );
    expect(loadChat(sessionStorage, 'bot-a')).toEqual({
      conversationToken: undefined,
      language: undefined,
      messages: [],
    });
  });

  it('keeps working when storage refuses writes, and says so once in the console', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const full = {
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      getItem: () => null,
    } as unknown as Storage;
    expect(() => saveChat(full, 'bot-a', { messages: [message({})] })).not.toThrow();
    expect(() => saveChat(full, 'bot-a', { messages: [message({})] })).not.toThrow();
    expect(loadChat(null, 'bot-a')).toBeNull();
    expect(warn.mock.calls).toEqual([
      ['Omnibot: sessionStorage refused (full); the conversation lasts until the page is left.'],
    ]);
  });

  it('keeps the newest messages within the length the loader takes', () => {
    const long = Array.from({ length: 200 }, (_, index) =>
      message({ key: `k${String(index)}`, text: 'x'.repeat(10_000) }),
    );
    const text = savedChatText({ conversationToken: 'tok', messages: long });
    expect(text.length).toBeLessThanOrEqual(SAVED_CHAT_MAX);
    const saved = readSavedChat(text);
    expect(saved?.conversationToken).toBe('tok');
    expect(saved?.messages.at(-1)?.key).toBe('k199');
    expect(saved?.messages.length).toBeLessThan(200);
  });
});
