import type { Frame, FrameLocator, Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { api, createAnsweringBot, startHostSite, type HostSite } from './support/bots';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform master's organisation holds the omnirag subscription.
const MASTER = { email: 'admin@example.com', password: 'Widget-Journey-Master-Passw0rd' };
test.use({
  serverEnv: {
    ADMIN_PASSWORD: MASTER.password,
    WIDGET_RATE_LIMIT_CONVERSATION: '1000',
    WIDGET_RATE_LIMIT_IP: '1000',
  },
  viewport: { width: 1280, height: 900 },
});

const TIMETABLE = {
  type: 'text' as const,
  title: 'Ferry timetable',
  text: 'The ferry to Lindholm leaves at noon from pier four. Tickets are sold on board and at the harbour office.',
};

let host: HostSite;
test.beforeEach(async ({ page, baseURL }) => {
  await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
  host = await startHostSite(defined(baseURL));
});
test.afterEach(async () => host.close());

const launcher = (page: Page, botId: string) => page.locator(`[data-omnibot="${botId}"] button`).first();
const chat = (page: Page, botId: string): FrameLocator =>
  page.frameLocator(`[data-omnibot-frame="${botId}"]`);
const chatFrame = (page: Page): Frame =>
  defined(page.frames().find((frame) => frame.url().includes('/widget/')));

async function ask(frame: FrameLocator, text: string) {
  await frame.getByRole('textbox', { name: 'Message' }).fill(text);
  await frame.getByRole('button', { name: 'Send', exact: true }).click();
}

interface Transcript {
  messages: { role: string; text: string; feedback: { rating: string } | null }[];
}

async function onlyTranscript(page: Page, baseURL: string, botId: string): Promise<Transcript> {
  const log = await api<{ items: { id: string }[] }>(page, baseURL, 'GET', `/v1/bots/${botId}/conversations`);
  expect(log.items).toHaveLength(1);
  return api<Transcript>(page, baseURL, 'GET', `/v1/conversations/${defined(log.items[0]).id}`);
}

test('a visitor on another origin asks, gets a sourced answer, rates it, keeps the conversation and has a PIN masked', async ({
  page,
  baseURL,
}) => {
  const base = defined(baseURL);
  const { botId } = await createAnsweringBot(page, base, {
    name: 'Harbour assistant',
    sources: [TIMETABLE],
    config: { install: { allowedOrigins: [host.origin] }, masking: { enableMasking: true } },
  });

  await page.goto(host.page(botId));
  await launcher(page, botId).click();
  const frameElement = page.locator(`[data-omnibot-frame="${botId}"]`);
  await expect(frameElement).toBeVisible();
  const box = defined(await frameElement.boundingBox());
  expect([Math.round(box.width), Math.round(box.height)]).toEqual([450, 750]);

  const frame = chat(page, botId);
  await ask(frame, 'When does the ferry to Lindholm leave?');
  await expect(frame.getByText(/leaves at noon/)).toBeVisible();
  // A pasted-text source has no address: it is named, not linked.
  await expect(frame.getByRole('list', { name: 'Sources' }).first()).toContainText('Ferry timetable');
  expect(await seriousViolations(chatFrame(page))).toEqual([]);

  await frame.getByRole('button', { name: 'Helpful' }).first().click();
  await expect
    .poll(async () => (await onlyTranscript(page, base, botId)).messages[1]?.feedback?.rating)
    .toBe('button1');

  // The conversation is kept (by the loader, in the host page's sessionStorage) across a reload of the host page.
  await page.reload();
  await launcher(page, botId).click();
  await expect(chat(page, botId).getByText('When does the ferry to Lindholm leave?')).toBeVisible();
  await expect(chat(page, botId).getByText(/leaves at noon/)).toBeVisible();

  await ask(chat(page, botId), 'my pin is 1234');
  await expect(chat(page, botId).getByText('my pin is ****')).toBeVisible();
  const transcript = await onlyTranscript(page, base, botId);
  const visitorTexts = transcript.messages.filter((message) => message.role === 'visitor').map((m) => m.text);
  expect(visitorTexts).toEqual(['When does the ferry to Lindholm leave?', 'my pin is ****']);
  expect(JSON.stringify(transcript)).not.toContain('1234');
});

test('an origin that is not allowed cannot frame the chat or call the widget endpoints', async ({
  page,
  request,
  baseURL,
}) => {
  const base = defined(baseURL);
  const { botId } = await createAnsweringBot(page, base, { name: 'Closed bot', sources: [TIMETABLE] });
  // A visitor's browser on that site: no session cookie of ours.
  const response = await request.post('/v1/intent', {
    headers: { origin: host.origin },
    data: { botId, text: 'Hello' },
  });
  expect(response.status()).toBe(403);
  expect(((await response.json()) as { code: string }).code).toBe('widget/origin-not-allowed');
  const frameHeaders = (await request.get(`/widget/?bot=${botId}`)).headers();
  expect(frameHeaders['content-security-policy']).toContain("frame-ancestors 'self'");
  expect(frameHeaders['content-security-policy']).not.toContain(host.origin);
});

test('switching the bot to dark colours in /bot/customize changes the live preview', async ({
  page,
  baseURL,
}) => {
  const { botId } = await createAnsweringBot(page, defined(baseURL), {
    name: 'Preview bot',
    sources: [TIMETABLE],
  });
  await page.goto(`/bot/customize?bot_id=${botId}`);
  const preview = page.frameLocator('iframe[title="Live preview of the widget"]');
  const background = () =>
    preview.locator('.ob-chat').evaluate((element) => getComputedStyle(element).backgroundColor);
  await expect(preview.getByRole('textbox', { name: 'Message' })).toBeVisible();
  const light = await background();

  await page.locator('label', { hasText: /^Dark$/ }).click();
  await expect.poll(background).not.toBe(light);

  // The dark window colour edited in the form shows in the preview as it is typed.
  await page.getByRole('button', { name: 'Appearance' }).click();
  await page.locator('label', { hasText: /^Dark mode$/ }).click();
  const field = page.getByRole('textbox', { name: 'Window background' });
  await field.fill('#123456');
  await field.blur();
  await expect.poll(background).toBe('rgb(18, 52, 86)');
  expect(await seriousViolations(page)).toEqual([]);
});
