import {
  createSseParser,
  KnowledgeBaseSchema,
  KnowledgeSourceSchema,
  ModelSchema,
  PromptSchema,
} from '@omnibot/contracts';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { indexes, indexKnowledgeBases, knowledgeSources } from '../../db/schema';
import { createGuardedFetch } from '../../lib/guarded-http/guarded-fetch';
import { type Caller, injectAs, sessionCookie, TEST_ADMIN_PASSWORD, type TestApp } from '../../test/app';
import { runIngestion } from '../knowledge/ingestion';

/** Test helpers of the RAG suites (not used by the server). */

/** An index row written straight to the tables (the index routes are another module's), keyword mode. */
export async function makeIndex(
  t: TestApp,
  tenantId: string,
  name: string,
  knowledgeBaseIds: string[],
  options: { scoreThreshold?: number; topK?: number } = {},
): Promise<string> {
  const [row] = await t.database.db
    .insert(indexes)
    .values({
      tenantId,
      name,
      mode: 'keyword',
      topK: options.topK ?? 5,
      scoreThreshold: options.scoreThreshold ?? 0,
    })
    .returning({ id: indexes.id });
  if (!row) throw new Error('index not inserted');
  if (knowledgeBaseIds.length > 0) {
    await t.database.db.insert(indexKnowledgeBases).values(
      knowledgeBaseIds.map((knowledgeBaseId, position) => ({
        tenantId,
        indexId: row.id,
        knowledgeBaseId,
        position,
      })),
    );
  }
  return row.id;
}

export type SourceBody =
  | { type: 'text'; title: string; text: string }
  | { type: 'qa'; question: string; answer: string }
  | { type: 'file'; path: string };

/** A knowledge base created through the API with its sources read by the real ingestion, ready to search. */
export async function makeKnowledge(
  t: TestApp,
  caller: Caller,
  name: string,
  sources: SourceBody[],
): Promise<{ id: string; sourceIds: string[] }> {
  const created = await injectAs(t, 'POST', '/v1/knowledge', caller, { name, language: 'en' });
  expect(created.statusCode, created.body).toBe(201);
  const kb = KnowledgeBaseSchema.parse(created.json());
  const deps = {
    db: t.database.db,
    env: t.env,
    storage: t.app.files.storage,
    fetch: createGuardedFetch(),
    log: t.app.log,
  };
  const sourceIds: string[] = [];
  for (const body of sources) {
    const response = await injectAs(t, 'POST', `/v1/knowledge/${kb.id}/sources`, caller, body);
    expect(response.statusCode, response.body).toBe(201);
    const source = KnowledgeSourceSchema.parse(response.json());
    await runIngestion(deps, { tenantId: kb.tenant_id, sourceId: source.id });
    const [row] = await t.database.db
      .select({ state: knowledgeSources.state, errorReason: knowledgeSources.errorReason })
      .from(knowledgeSources)
      .where(and(eq(knowledgeSources.tenantId, kb.tenant_id), eq(knowledgeSources.id, source.id)));
    expect(row?.state, row?.errorReason ?? '').toBe('ready');
    sourceIds.push(source.id);
  }
  return { id: kb.id, sourceIds };
}

export async function makePrompt(t: TestApp, caller: Caller, name: string, template: string) {
  const response = await injectAs(t, 'POST', '/v1/prompts', caller, { name, template });
  expect(response.statusCode, response.body).toBe(201);
  return PromptSchema.parse(response.json());
}

/** A chat model of the platform, created by its master and offered to the given tenants. */
export async function makeChatModel(
  t: TestApp,
  body: { name: string; base_url: string; api_key?: string; tenant_ids: string[] },
) {
  const master = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
  const response = await injectAs(t, 'POST', '/v1/models', master, {
    name: body.name,
    kind: 'chat',
    base_url: body.base_url,
    model_name: 'test-chat',
    ...(body.api_key === undefined ? {} : { api_key: body.api_key }),
    sharing: { all: false, tenant_ids: body.tenant_ids },
  });
  expect(response.statusCode, response.body).toBe(201);
  return ModelSchema.parse(response.json());
}

export interface StreamedEvent {
  event: string;
  data: unknown;
}

/** The Server-Sent Events of a response body, in order. */
export function parseEvents(body: string): StreamedEvent[] {
  const events: StreamedEvent[] = [];
  const parser = createSseParser(({ event, data }) =>
    events.push({ event, data: JSON.parse(data) as unknown }),
  );
  parser.push(body);
  parser.end();
  return events;
}

/** The text a stream showed: its delta events joined in order. */
export const streamedText = (events: StreamedEvent[]) =>
  events
    .filter((event) => event.event === 'delta')
    .map((event) => (event.data as { text: string }).text)
    .join('');
