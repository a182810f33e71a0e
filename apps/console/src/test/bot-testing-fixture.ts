import {
  type Bot,
  type BotChatReply,
  type BotTestCase,
  type BotTestRun,
  type BotTestSource,
  WidgetConfigSchema,
} from '@omnibot/contracts';

/** Fixtures of the bot chat and bot testing screens (console tests only). */

const NOW = '2026-01-01T00:00:00.000Z';
export const BOT_ID = '3f1c2a9e-7b4d-4e8f-9a1b-2c3d4e5f6a7b';
const OTHER_BOT_ID = '4a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
export const SOURCE_ID = '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e';

function botOf(id: string, name: string, enabled = true): Bot {
  return {
    id,
    tenant_id: 't-acme',
    name,
    enabled,
    config: WidgetConfigSchema.parse({}),
    config_version: 1,
    etag: `"${id}-1"`,
    created_by: 'u1',
    updated_by: 'u1',
    created_at: NOW,
    updated_at: NOW,
  };
}

export const BOTS = {
  items: [botOf(BOT_ID, 'Helper'), botOf(OTHER_BOT_ID, 'Draft', false)],
  total: 2,
  page: 1,
  page_size: 100,
};

export const REPLY: BotChatReply = {
  messages: [{ type: 'text', text: 'Parcels arrive in three days [1].' }],
  sources: [
    {
      n: 1,
      chunk_id: 'c1',
      source_id: SOURCE_ID,
      knowledge_id: 'kb1',
      title: 'Shipping',
      url: 'https://acme.test/shipping',
      heading_path: ['Delivery'],
      page: null,
      score: 0.8123,
    },
  ],
  fallback: false,
  handover_offered: false,
  trace: {
    engine: 'builtin',
    error: null,
    answer_id: 'a1',
    kind: 'model',
    chunks: [
      {
        chunk_id: 'c1',
        source_id: SOURCE_ID,
        title: 'Shipping',
        url: 'https://acme.test/shipping',
        heading_path: ['Help', 'Delivery'],
        page: 4,
        score: 0.8123,
        cited: true,
        excerpt: 'Delivery of parcels takes three working days in Europe.',
      },
      {
        chunk_id: 'c2',
        source_id: 'other',
        title: 'Returns',
        url: null,
        heading_path: [],
        page: null,
        score: 0.2,
        cited: false,
        excerpt: 'Items can be returned within thirty days.',
      },
    ],
    timings: { retrieve_ms: 12.4, generate_ms: 340.2, total_ms: 356.1 },
  },
};

export function caseOf(id: string, question: string, extra: Partial<BotTestCase> = {}): BotTestCase {
  return {
    id,
    bot_id: BOT_ID,
    question,
    expected_text: null,
    expected_source_id: null,
    expected_source_title: null,
    created_by: 'u1',
    updated_by: 'u1',
    created_at: NOW,
    updated_at: NOW,
    ...extra,
  };
}

export const SOURCES: { items: BotTestSource[] } = {
  items: [{ id: SOURCE_ID, title: 'Shipping', type: 'text', knowledge_id: 'kb1', knowledge_name: 'Help' }],
};

export function runOf(id: string, extra: Partial<BotTestRun> = {}): BotTestRun {
  return {
    id,
    bot_id: BOT_ID,
    status: 'done',
    total: 2,
    passed: 2,
    failed: 0,
    error: null,
    results: [],
    created_by: 'u1',
    created_at: NOW,
    started_at: NOW,
    finished_at: NOW,
    ...extra,
  };
}
