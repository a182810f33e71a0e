import { createServer, type Server } from 'node:http';
import type { APIResponse, Page } from '@playwright/test';
import type { CreateSourceBody, WidgetConfigPatch } from '@omnibot/contracts';
import { expect } from './server';
import { freePort } from './server';

/** A JSON call from the page's signed-in browser context (it carries the session cookie and our Origin). */
export async function api<T>(
  page: Page,
  baseURL: string,
  method: string,
  url: string,
  data?: unknown,
): Promise<T> {
  const response: APIResponse = await page.request.fetch(url, {
    method,
    headers: { origin: baseURL },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.status(), `${method} ${url}: ${await response.text()}`).toBeLessThan(300);
  return (response.status() === 204 ? null : await response.json()) as T;
}

export interface AnsweringBot {
  botId: string;
  knowledgeId: string;
  ragId: string;
}

/**
 * A bot answering from a knowledge base through the built-in engine (keyword index, extractive RAG): the sources
 * are added and the call returns once every one of them is ready.
 */
export async function createAnsweringBot(
  page: Page,
  baseURL: string,
  { name, sources, config = {} }: { name: string; sources: CreateSourceBody[]; config?: WidgetConfigPatch },
): Promise<AnsweringBot> {
  const knowledge = await api<{ id: string }>(page, baseURL, 'POST', '/v1/knowledge', {
    name: `${name} knowledge`,
    language: 'en',
  });
  await api(page, baseURL, 'POST', `/v1/knowledge/${knowledge.id}/sources/bulk`, { sources });
  // Every source ingested: the poll shows the states (and a failure's reason) while it waits.
  await expect
    .poll(
      async () => {
        const list = await api<{ items: { state: string; error: { reason: string } | null }[] }>(
          page,
          baseURL,
          'GET',
          `/v1/knowledge/${knowledge.id}/sources?page_size=100`,
        );
        const states = list.items.map((item) =>
          item.error ? `${item.state}: ${item.error.reason}` : item.state,
        );
        return [...new Set(states)].sort().join(', ') + ` (${String(list.items.length)})`;
      },
      { timeout: 60_000 },
    )
    .toBe(`ready (${String(sources.length)})`);
  const index = await api<{ id: string }>(page, baseURL, 'POST', '/v1/indexes', {
    name: `${name} index`,
    knowledge_ids: [knowledge.id],
    mode: 'keyword',
  });
  const rag = await api<{ id: string }>(page, baseURL, 'POST', '/v1/rags', {
    name: `${name} RAG`,
    index_id: index.id,
  });
  const bot = await api<{ id: string }>(page, baseURL, 'POST', '/v1/bots', {
    name,
    config: { ...config, engines: { botEngine: 'builtin', ...config.engines, rag_id: rag.id } },
  });
  return { botId: bot.id, knowledgeId: knowledge.id, ragId: rag.id };
}

/** A customer's website on its own origin (another port than the server), embedding a bot with the snippet. */
export interface HostSite {
  origin: string;
  /** The host page for `botId`; `extra` is appended to the body (already trusted HTML). */
  page(botId: string): string;
  close(): Promise<void>;
}

/**
 * `hostname` `localhost` puts the host page on another site than the server (127.0.0.1), where the browser treats
 * the chat frame as a third-party frame; the default 127.0.0.1 is only another origin of the same site.
 */
export async function startHostSite(
  serverUrl: string,
  extra = '',
  hostname: '127.0.0.1' | 'localhost' = '127.0.0.1',
): Promise<HostSite> {
  const port = await freePort();
  const origin = `http://${hostname}:${port}`;
  const server: Server = createServer((request, response) => {
    const bot = new URL(request.url ?? '/', origin).searchParams.get('bot') ?? '';
    if (!/^[0-9a-f-]{36}$/.test(bot)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour Ferries</title></head>
<body><main><h1>Harbour Ferries</h1><p>Timetables, tickets and help.</p>${extra}</main>
<script src="${serverUrl}/widget.js?bot=${bot}" data-bot="${bot}" async></script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin,
    page: (botId) => `${origin}/?bot=${botId}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
