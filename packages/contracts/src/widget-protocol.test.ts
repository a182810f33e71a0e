import { describe, expect, it } from 'vitest';
import { WidgetConfigSchema, publicWidgetConfig } from './widget-config';
import {
  EVENT_TEXT_MAX,
  PROTOCOL_SOURCE,
  SAVED_CHAT_MAX,
  VISITOR_TEXT_MAX,
  parseFrameMessage,
  parseHostMessage,
  parsePreviewMessage,
} from './widget-protocol';

const source = PROTOCOL_SOURCE;

describe('messages from the chat frame', () => {
  it.each([
    { source, type: 'ready' },
    { source, type: 'close' },
    { source, type: 'handover' },
    { source, type: 'message', role: 'user', text: 'Hi' },
    { source, type: 'message', role: 'bot', text: 'x'.repeat(EVENT_TEXT_MAX) },
    { source, type: 'hello' },
    { source, type: 'store', chat: '{"conversationToken":"c1.a.b","messages":[]}' },
  ])('accepts %j', (data) => {
    expect(parseFrameMessage(data)).toEqual(data);
  });

  it.each([
    null,
    undefined,
    'close',
    42,
    [source, 'close'],
    { type: 'close' },
    { source: 'someone-else', type: 'close' },
    { source, type: 'CLOSE' },
    { source, type: 'send', text: 'Hi' },
    { source, type: 'close', extra: true },
    { source, type: 'message', role: 'admin', text: 'Hi' },
    { source, type: 'message', role: 'bot' },
    { source, type: 'message', role: 'bot', text: '' },
    { source, type: 'message', role: 'bot', text: 7 },
    { source, type: 'message', role: 'bot', text: 'x'.repeat(EVENT_TEXT_MAX + 1) },
    { source, type: 'message', role: 'bot', text: 'Hi', html: '<img src=x onerror=alert(1)>' },
    { source, type: 'hello', botId: 'x' },
    { source, type: 'store' },
    { source, type: 'store', chat: '' },
    { source, type: 'store', chat: 'not json' },
    { source, type: 'store', chat: { conversationToken: 'x' } },
  ])('refuses %j', (data) => {
    expect(parseFrameMessage(data)).toBeNull();
  });
});

it('takes a saved conversation up to SAVED_CHAT_MAX characters from the chat frame', () => {
  const chat = (length: number) => `{"x":"${'y'.repeat(length - 8)}"}`;
  expect(parseFrameMessage({ source, type: 'store', chat: chat(SAVED_CHAT_MAX) })).not.toBeNull();
  expect(parseFrameMessage({ source, type: 'store', chat: chat(SAVED_CHAT_MAX + 1) })).toBeNull();
});

describe('messages from the host page', () => {
  it.each([
    { source, type: 'opened' },
    { source, type: 'send', text: 'Where is my order?' },
    { source, type: 'send', text: 'x'.repeat(VISITOR_TEXT_MAX) },
    { source, type: 'setLanguage', language: 'pt-BR' },
    { source, type: 'init', config: publicWidgetConfig(WidgetConfigSchema.parse({})), chat: null },
    {
      source,
      type: 'init',
      config: publicWidgetConfig(WidgetConfigSchema.parse({})),
      chat: '{"messages":[]}',
    },
  ])('accepts %j', (data) => {
    expect(parseHostMessage(data)).toEqual(data);
  });

  it.each([
    null,
    { source, type: 'ready' },
    { source, type: 'send' },
    { source, type: 'send', text: '' },
    { source, type: 'send', text: 'x'.repeat(VISITOR_TEXT_MAX + 1) },
    { source, type: 'send', text: ['Hi'] },
    { source, type: 'send', text: 'Hi', botId: 'other' },
    { source, type: 'setLanguage', language: 'English' },
    { source, type: 'setLanguage', language: 'en;<script>' },
    { source, type: 'setLanguage', language: 3 },
    { source, type: 'opened', token: 'abc' },
    { source: 'omnibot', type: 'send', text: 'Hi' },
    { source, type: 'init', config: publicWidgetConfig(WidgetConfigSchema.parse({})) },
    { source, type: 'init', config: { identity: {} }, chat: null },
    { source, type: 'init', config: publicWidgetConfig(WidgetConfigSchema.parse({})), chat: 'x' },
    {
      source,
      type: 'init',
      config: publicWidgetConfig(WidgetConfigSchema.parse({})),
      chat: null,
      token: 'x',
    },
  ])('refuses %j', (data) => {
    expect(parseHostMessage(data)).toBeNull();
  });
});

describe('parsePreviewMessage', () => {
  const config = publicWidgetConfig(WidgetConfigSchema.parse({}));
  const valid = { source: PROTOCOL_SOURCE, type: 'previewConfig', config, colorScheme: 'dark' };

  it('accepts a full public configuration with a light or dark scheme', () => {
    expect(parsePreviewMessage(valid)).toEqual(valid);
    expect(parsePreviewMessage({ ...valid, colorScheme: 'light' })?.colorScheme).toBe('light');
  });

  it.each([
    ['another source', { ...valid, source: 'other' }],
    ['an unknown scheme', { ...valid, colorScheme: 'auto' }],
    ['an extra key', { ...valid, botId: 'x' }],
    ['no configuration', { ...valid, config: null }],
    ['a missing group', { ...valid, config: { ...config, titles: undefined } }],
    [
      'a text that is not a string',
      { ...valid, config: { ...config, identity: { ...config.identity, botName: 5 } } },
    ],
    [
      'a menu that is not a list',
      { ...valid, config: { ...config, welcome: { ...config.welcome, popupMenu: 'x' } } },
    ],
  ])('refuses %s', (_, message) => {
    expect(parsePreviewMessage(message)).toBeNull();
  });
});
