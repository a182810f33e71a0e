import {
  type Bot,
  type BotStats,
  type Conversation,
  type ConversationSummary,
  WidgetConfigSchema,
} from '@omnibot/contracts';

const NOW = '2026-01-01T00:00:00.000Z';

export const BOT_ID = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
export const OTHER_BOT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const CONVERSATION_ID = '6e5d4c3b-2a19-4f8e-9d7c-6b5a4f3e2d1c';

const config = WidgetConfigSchema.parse({
  feedback: { button1Text: 'Great', button2Text: 'Meh', button3Text: 'Wrong' },
});

export const BOT: Bot = {
  id: BOT_ID,
  tenant_id: 't-acme',
  name: 'Help desk',
  enabled: true,
  config,
  config_version: 1,
  etag: `"${BOT_ID}-1"`,
  created_by: 'u1',
  updated_by: 'u1',
  created_at: NOW,
  updated_at: NOW,
};

export const OTHER_BOT: Bot = { ...BOT, id: OTHER_BOT_ID, name: 'Sales', enabled: false };

const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}`;
const zero = (d: string) => ({
  day: d,
  conversations: 0,
  visitor_messages: 0,
  bot_messages: 0,
  answered: 0,
  fallback: 0,
  feedback: { button1: 0, button2: 0, button3: 0 },
});

/** Seven days of figures: activity on the 5th and the 7th only. */
export function statsOf(busy: boolean): BotStats {
  const items = [1, 2, 3, 4, 5, 6, 7].map((n) => zero(day(n)));
  if (busy) {
    items[4] = {
      day: day(5),
      conversations: 3,
      visitor_messages: 5,
      bot_messages: 5,
      answered: 4,
      fallback: 1,
      feedback: { button1: 2, button2: 0, button3: 1 },
    };
    items[6] = {
      day: day(7),
      conversations: 1,
      visitor_messages: 2,
      bot_messages: 2,
      answered: 1,
      fallback: 1,
      feedback: { button1: 0, button2: 1, button3: 0 },
    };
  }
  const sum = (key: 'conversations' | 'visitor_messages' | 'bot_messages' | 'answered' | 'fallback') =>
    items.reduce((total, item) => total + item[key], 0);
  return {
    bot_id: BOT_ID,
    days: 7,
    from: day(1),
    to: day(7),
    items,
    totals: {
      conversations: sum('conversations'),
      visitor_messages: sum('visitor_messages'),
      bot_messages: sum('bot_messages'),
      answered: sum('answered'),
      fallback: sum('fallback'),
      feedback: busy ? { button1: 2, button2: 1, button3: 1 } : { button1: 0, button2: 0, button3: 0 },
    },
    feedback_labels: { button1: 'Great', button2: 'Meh', button3: 'Wrong' },
  };
}

export const SUMMARY: ConversationSummary = {
  id: CONVERSATION_ID,
  bot_id: BOT_ID,
  origin: 'https://shop.acme.test',
  country: 'FR',
  language: 'en',
  started_at: '2026-01-05T10:00:00.000Z',
  last_message_at: '2026-01-05T10:01:00.000Z',
  message_count: 4,
  first_visitor_text: 'My PIN is **** and I want a refund',
  fallback_count: 1,
  feedback: { button1: 1, button2: 0, button3: 1 },
};

export const TRANSCRIPT: Conversation = {
  id: CONVERSATION_ID,
  bot_id: BOT_ID,
  bot_name: 'Help desk',
  origin: 'https://shop.acme.test',
  country: 'FR',
  language: 'en',
  started_at: '2026-01-05T10:00:00.000Z',
  last_message_at: '2026-01-05T10:01:00.000Z',
  message_total: 4,
  messages: [
    {
      id: 'm1',
      role: 'visitor',
      author: null,
      text: 'My PIN is **** and I want a refund',
      language: 'en',
      created_at: '2026-01-05T10:00:00.000Z',
      fallback: false,
      sources: [],
      trace: null,
      feedback: null,
    },
    {
      id: 'm2',
      role: 'bot',
      author: null,
      text: 'Items can be returned within 30 days [1].',
      language: 'en',
      created_at: '2026-01-05T10:00:00.000Z',
      fallback: false,
      sources: [
        { n: 1, title: 'Returns policy', url: 'https://shop.acme.test/returns' },
        { n: 2, title: 'Sneaky source', url: 'javascript:alert(1)' },
      ],
      trace: { engine: 'builtin', error: null, ms: 42 },
      feedback: {
        rating: 'button1',
        label: 'Great',
        comment: 'Thanks, very clear',
        created_at: '2026-01-05T10:00:30.000Z',
        updated_at: '2026-01-05T10:00:30.000Z',
      },
    },
    {
      id: 'm3',
      role: 'visitor',
      author: null,
      text: 'And gift cards?',
      language: 'en',
      created_at: '2026-01-05T10:00:40.000Z',
      fallback: false,
      sources: [],
      trace: null,
      feedback: null,
    },
    {
      id: 'm4',
      role: 'bot',
      author: null,
      text: 'Sorry, I do not know that.',
      language: 'en',
      created_at: '2026-01-05T10:01:00.000Z',
      fallback: true,
      sources: [],
      trace: { engine: 'builtin', error: { code: 'rag/none', reason: 'No RAG is set.' }, ms: 3 },
      feedback: {
        rating: 'button3',
        label: 'Wrong',
        comment: null,
        created_at: '2026-01-05T10:01:10.000Z',
        updated_at: '2026-01-05T10:01:10.000Z',
      },
    },
  ],
  summaries: [],
};
