import type { Frame, Page } from '@playwright/test';
import { XSS_PAYLOADS } from '../apps/widget/src/test/xss-payloads';
import { api, createAnsweringBot, startHostSite, type HostSite } from './support/bots';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

const MASTER = { email: 'admin@example.com', password: 'Widget-Xss-Master-Passw0rd' };
test.use({
  serverEnv: {
    ADMIN_PASSWORD: MASTER.password,
    WIDGET_RATE_LIMIT_CONVERSATION: '1000',
    WIDGET_RATE_LIMIT_IP: '1000',
  },
  viewport: { width: 1280, height: 900 },
});
// Sends every payload three ways and looks in three documents: slower than the other journeys.
test.setTimeout(180_000);

let host: HostSite;
test.beforeEach(async ({ page, baseURL }) => {
  await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
  host = await startHostSite(defined(baseURL));
  // Any dialog is a payload that ran.
  page.on('dialog', (dialog) => {
    throw new Error(`a dialog opened: ${dialog.message()}`);
  });
});
test.afterEach(async () => host.close());

/**
 * The canaries that payloads set, in every frame of the page: empty when nothing ran. A frame that goes away while
 * it is read (the console's preview reloading) has nothing to report.
 */
async function canaries(page: Page) {
  const frames: Frame[] = page.frames();
  const values = await Promise.all(
    frames.map((frame) =>
      frame.evaluate(() => (window as { __xss?: unknown }).__xss ?? null).catch(() => null),
    ),
  );
  return values.filter((value) => value !== null);
}

test('the XSS corpus executes nothing as visitor text, bot answers or configuration texts', async ({
  page,
  baseURL,
}) => {
  const base = defined(baseURL);
  expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(50);
  const pick = (n: number) => defined(XSS_PAYLOADS[n % XSS_PAYLOADS.length]);

  // Bot answers: every payload is the verbatim answer of a curated Q&A pair, and knowledge text carries them too.
  const qa = XSS_PAYLOADS.map((payload, n) => ({
    type: 'qa' as const,
    question: `What is test case number ${n} about?`,
    answer: payload,
  }));
  const text = { type: 'text' as const, title: pick(1), text: XSS_PAYLOADS.join(' The next case follows. ') };
  const { botId } = await createAnsweringBot(page, base, {
    name: 'Hostile bot',
    sources: [...qa, text],
    config: {
      install: { allowedOrigins: [host.origin] },
      identity: {
        name: 'Hostile bot',
        description: pick(2).slice(0, 160),
        displayName: pick(3).slice(0, 80),
      },
      welcome: {
        welcomeText: pick(4),
        welcomeText_enabled: true,
        welcomeMenu: [{ label: pick(5).slice(0, 120), text: pick(6) }],
        start_suggestions: [pick(7).slice(0, 120)],
      },
      feedback: { button1Text: pick(8).slice(0, 120), disclaimer: pick(9) },
      launcher: { infoText: pick(10), closeText: pick(11).slice(0, 120) },
      engines: { fallbackText: pick(12) },
    },
  });

  await page.goto(host.page(botId));
  await page.locator(`[data-omnibot="${botId}"] button`).first().click();
  const chat = page.frameLocator(`[data-omnibot-frame="${botId}"]`);
  const input = chat.getByRole('textbox', { name: 'Message' });
  await expect(input).toBeVisible();

  // Visitor text and the answers to it.
  for (const [n, payload] of XSS_PAYLOADS.entries()) {
    await input.fill(payload.slice(0, 4000));
    await chat.getByRole('button', { name: 'Send', exact: true }).click();
    await input.fill(`What is test case number ${n} about?`);
    await chat.getByRole('button', { name: 'Send', exact: true }).click();
  }
  await expect
    .poll(async () => chat.locator('.ob-message.ob-bot').count(), { timeout: 60_000 })
    .toBeGreaterThan(XSS_PAYLOADS.length * 2 - 1);
  expect(await canaries(page)).toEqual([]);

  // The console shows the same texts: the bot list, the customize form and the conversation log.
  for (const path of ['/bot/manage', `/bot/customize?bot_id=${botId}`, `/bot/dashboard?bot_id=${botId}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await canaries(page)).toEqual([]);
  }
  await api(page, base, 'GET', `/v1/bots/${botId}`);
});
