import type { FrameLocator, Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { api, startHostSite, type HostSite } from './support/bots';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform master answers visitors through the built-in inbox; the visitor is on another origin.
const MASTER = { email: 'admin@example.com', password: 'Live-Agent-Journey-Master-Passw0rd' };
const MASTER_NAME = 'Platform Administrator';
const FALLBACK = 'I cannot help with that, but a person can.';
test.use({
  serverEnv: {
    ADMIN_PASSWORD: MASTER.password,
    WIDGET_RATE_LIMIT_CONVERSATION: '1000',
    WIDGET_RATE_LIMIT_IP: '1000',
  },
  viewport: { width: 1280, height: 900 },
});

let host: HostSite;
test.beforeEach(async ({ page, baseURL }) => {
  await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
  host = await startHostSite(defined(baseURL));
});
test.afterEach(async () => host.close());

const chat = (page: Page, botId: string): FrameLocator =>
  page.frameLocator(`[data-omnibot-frame="${botId}"]`);

async function say(frame: FrameLocator, text: string) {
  await frame.getByRole('textbox', { name: 'Message' }).fill(text);
  await frame.getByRole('button', { name: 'Send', exact: true }).click();
}

test('the bot falls back, the visitor asks for a person, an agent claims, both talk, the agent ends', async ({
  page,
  browser,
  baseURL,
}) => {
  const base = defined(baseURL);
  const bot = await api<{ id: string }>(page, base, 'POST', '/v1/bots', {
    name: 'Harbour desk',
    config: {
      install: { allowedOrigins: [host.origin] },
      engines: { enableliveagent: true, liveagent: 'inbox', fallbackText: FALLBACK },
    },
  });
  await api(page, base, 'PATCH', `/v1/bots/${bot.id}`, { enabled: true });

  // The visitor, in a browser of their own on the customer's site.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(host.page(bot.id));
  await visitor.locator(`[data-omnibot="${bot.id}"] button`).first().click();
  const frame = chat(visitor, bot.id);
  await say(frame, 'My parcel went to the wrong harbour.');
  await expect(frame.getByText(FALLBACK)).toBeVisible();
  await frame.getByRole('button', { name: 'Talk to an agent' }).first().click();
  await expect(frame.getByText(/Waiting for an agent… You are number 1 in the queue\./)).toBeVisible();

  // The agent sees it in the inbox, claims it and answers.
  await page.goto('/inbox');
  const list = page.getByRole('list', { name: 'Conversations' });
  await expect(list.getByText('Harbour desk')).toBeVisible();
  await list.getByText('Harbour desk').click();
  const conversation = page.getByRole('region', { name: 'Conversation' });
  await expect(conversation.getByText('My parcel went to the wrong harbour.')).toBeVisible();
  await conversation.getByRole('button', { name: 'Claim' }).click();
  await expect(frame.getByText(`${MASTER_NAME} joined the conversation.`)).toBeVisible();

  const reply = conversation.getByRole('textbox', { name: 'Your reply' });
  await reply.fill('Sorry about that! Which harbour did it reach?');
  await reply.press('Enter');
  await expect(frame.getByText('Sorry about that! Which harbour did it reach?')).toBeVisible();

  await say(frame, 'The north pier, number 4.');
  await expect(conversation.getByText('The north pier, number 4.')).toBeVisible();
  // While the person answers, the bot says nothing more.
  await expect(frame.getByText(FALLBACK)).toHaveCount(1);

  await conversation.getByRole('button', { name: 'Close' }).click();
  await expect(frame.getByText('The conversation has ended.').first()).toBeVisible();

  // The transcript in the dashboard has every side of it.
  const log = await api<{ items: { id: string }[] }>(page, base, 'GET', `/v1/bots/${bot.id}/conversations`);
  const transcript = await api<{ messages: { role: string; text: string; author: string | null }[] }>(
    page,
    base,
    'GET',
    `/v1/conversations/${defined(log.items[0]).id}`,
  );
  expect(transcript.messages.map((message) => message.role)).toEqual([
    'visitor',
    'bot',
    'system',
    'agent',
    'visitor',
    'system',
  ]);
  expect(transcript.messages[3]).toMatchObject({ author: MASTER_NAME });
  await visitorContext.close();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`the inbox in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('has no serious accessibility finding, and works at 375 px with a conversation waiting', async ({
      page,
      baseURL,
    }) => {
      const base = defined(baseURL);
      const bot = await api<{ id: string }>(page, base, 'POST', '/v1/bots', {
        name: `Pier desk ${colorScheme}`,
        config: { engines: { enableliveagent: true, liveagent: 'inbox', fallbackText: FALLBACK } },
      });
      await api(page, base, 'PATCH', `/v1/bots/${bot.id}`, { enabled: true });
      // A visitor calling directly (no browser Origin) starts a conversation and asks for a person.
      const first = await page.request.post('/v1/intent', {
        data: { botId: bot.id, text: 'Is the ferry late?' },
      });
      const token = ((await first.json()) as { conversationToken: string }).conversationToken;
      const queued = await page.request.post('/v1/handover', {
        data: { botId: bot.id, conversationToken: token },
      });
      expect(queued.status()).toBe(200);

      await page.goto('/inbox');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      const list = page.getByRole('list', { name: 'Conversations' });
      await list.getByText(`Pier desk ${colorScheme}`).click();
      const conversation = page.getByRole('region', { name: 'Conversation' });
      await expect(conversation.getByText('Is the ferry late?')).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);

      // On a phone the list and the conversation stack, and nothing runs off the side of the screen.
      await page.setViewportSize({ width: 375, height: 800 });
      await expect(conversation.getByRole('button', { name: 'Claim' })).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await conversation.getByRole('button', { name: 'Claim' }).click();
      await expect(conversation.getByRole('textbox', { name: 'Your reply' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
