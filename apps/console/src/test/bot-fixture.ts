import { type Bot, maskedWidgetConfig, WidgetConfigSchema } from '@omnibot/contracts';
import type { Session } from '../lib/session';
import { json } from './fake-auth-api';

const NOW = '2026-01-01T00:00:00.000Z';

export const BOT_ID = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
export const OTHER_BOT_ID = '4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a';

/** A bot as the console receives it: the default configuration, with a stored OpenAI key shown masked. */
export function makeBot(overrides: Partial<Bot> = {}): Bot {
  const config = WidgetConfigSchema.parse({
    identity: { name: 'Help bot', botName: 'Help bot' },
    openai: { apiKey: 'sk-live-0123456789abcdefWXYZ' },
  });
  return {
    id: BOT_ID,
    tenant_id: 't-acme',
    name: 'Help bot',
    enabled: true,
    config: maskedWidgetConfig(config),
    config_version: 1,
    etag: `"${BOT_ID}-1"`,
    created_by: 'u1',
    updated_by: 'u1',
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

export const botListOf = (items: Bot[], extra: Record<string, unknown> = {}) =>
  json(200, { items, total: items.length, page: 1, page_size: 100, ...extra });

/** A user of a client organisation, an administrator unless told otherwise; with omnirag unless told otherwise. */
export const botSession = (features: string[] = ['omnirag'], role = 'administrator'): Session => ({
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role, tenant_id: 't-acme' },
  features,
  signOut: () => Promise.resolve(),
});

type Patch = { name?: string; enabled?: boolean; config?: Record<string, Record<string, unknown>> };

/** Merges a PATCH /v1/bots/:id body over `bot` the way the server does (group by group, field by field). */
export function applyPatch(bot: Bot, patch: Patch): Bot {
  const config = structuredClone(bot.config) as unknown as Record<string, Record<string, unknown>>;
  for (const [group, fields] of Object.entries(patch.config ?? {}))
    config[group] = { ...config[group], ...fields };
  return {
    ...bot,
    ...(patch.name === undefined ? {} : { name: patch.name }),
    ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
    config: config as unknown as Bot['config'],
    config_version: bot.config_version + 1,
    updated_at: '2026-01-02T00:00:00.000Z',
  };
}

type FetchMock = { mock: { calls: [RequestInfo | URL, RequestInit?][] } };

/** The parsed JSON bodies of the calls made with `method`, in order. */
export function sentBodies<T = Record<string, unknown>>(fetchMock: FetchMock, method: string): T[] {
  return fetchMock.mock.calls
    .filter(([, init]) => init?.method === method)
    .map(([, init]) => (typeof init?.body === 'string' ? (JSON.parse(init.body) as T) : (undefined as T)));
}

/** The address (path and query) of every call. */
export const requestedUrls = (fetchMock: FetchMock) =>
  fetchMock.mock.calls.map(([input]) =>
    typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
  );
