import type { ConsoleMessage, Page } from '@playwright/test';
import { api, createAnsweringBot, startHostSite, type HostSite } from './support/bots';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

const MASTER = { email: 'admin@example.com', password: 'Widget-Host-Master-Passw0rd' };
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
  // The server is on 127.0.0.1: a host page on localhost is another site, as a customer's website is.
  host = await startHostSite(defined(baseURL), '', 'localhost');
});
test.afterEach(async () => host.close());

const launcher = (page: Page, botId: string) => page.locator(`[data-omnibot="${botId}"] button`).first();
const chatFrame = (page: Page, botId: string) => page.locator(`[data-omnibot-frame="${botId}"]`);
const chat = (page: Page, botId: string) => page.frameLocator(`[data-omnibot-frame="${botId}"]`);

test('a conversation on another site survives a reload, is recorded under that site, and Esc closes the window', async ({
  page,
  baseURL,
}) => {
  const base = defined(baseURL);
  const { botId } = await createAnsweringBot(page, base, {
    name: 'Ferry desk',
    sources: [
      {
        type: 'text',
        title: 'Ferry timetable',
        text: 'The ferry to Lindholm leaves at noon from pier four. Tickets are sold on board.',
      },
    ],
    config: { install: { allowedOrigins: [host.origin] } },
  });
  const storageErrors: string[] = [];
  page.on('console', (message) => {
    if (/storage/i.test(message.text())) storageErrors.push(message.text());
  });

  await page.goto(host.page(botId));
  // Esc closes the window wherever the focus is: here on the host page, after a click on its text.
  await launcher(page, botId).click();
  await expect(chat(page, botId).getByRole('textbox', { name: 'Message' })).toBeVisible();
  await page.getByRole('heading', { name: 'Harbour Ferries' }).click();
  await page.keyboard.press('Escape');
  await expect(chatFrame(page, botId)).toBeHidden();

  await launcher(page, botId).click();
  const input = chat(page, botId).getByRole('textbox', { name: 'Message' });
  await input.fill('When does the ferry to Lindholm leave?');
  await chat(page, botId).getByRole('button', { name: 'Send', exact: true }).click();
  await expect(chat(page, botId).getByText(/leaves at noon/)).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(chatFrame(page, botId)).toBeHidden();
  await expect(launcher(page, botId)).toHaveAttribute('aria-expanded', 'false');

  await page.reload();
  await launcher(page, botId).click();
  await expect(chat(page, botId).getByText('When does the ferry to Lindholm leave?')).toBeVisible();
  await expect(chat(page, botId).getByText(/leaves at noon/)).toBeVisible();
  // The same conversation goes on: the next message joins it.
  await chat(page, botId).getByRole('textbox', { name: 'Message' }).fill('Where are tickets sold?');
  await chat(page, botId).getByRole('button', { name: 'Send', exact: true }).click();
  await expect(
    chat(page, botId)
      .getByText(/sold on board/)
      .last(),
  ).toBeVisible();
  expect(storageErrors).toEqual([]);

  const log = await api<{ items: { origin: string | null; message_count: number }[] }>(
    page,
    base,
    'GET',
    `/v1/bots/${botId}/conversations`,
  );
  expect(log.items.map((item) => [item.origin, item.message_count])).toEqual([[host.origin, 4]]);
  const origins = await api<{ items: { origin: string }[] }>(page, base, 'GET', `/v1/bots/${botId}/origins`);
  expect(origins.items.map((item) => item.origin)).toEqual([host.origin]);
});

test('on a site the bot does not allow nothing is drawn, the console says why once, and the site is listed to allow', async ({
  page,
  browser,
  baseURL,
}) => {
  const base = defined(baseURL);
  const bot = await api<{ id: string }>(page, base, 'POST', '/v1/bots', { name: 'Closed bot' });
  const warnings: ConsoleMessage[] = [];
  page.on('console', (message) => {
    // The host site has no icon: that 404 is the site's, not the widget's.
    if (message.location().url.endsWith('/favicon.ico')) return;
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message);
  });

  await page.goto(host.page(bot.id));
  await expect
    .poll(async () =>
      (await api<{ items: { origin: string }[] }>(page, base, 'GET', `/v1/bots/${bot.id}/origins`)).items.map(
        (item) => item.origin,
      ),
    )
    .toEqual([host.origin]);
  await expect(page.locator('[data-omnibot]')).toHaveCount(0);
  await expect(page.locator('iframe')).toHaveCount(0);
  expect(warnings.map((message) => [message.type(), message.text()])).toEqual([
    [
      'warning',
      `Omnibot: this bot is not allowed on ${host.origin}; add it to the bot's allowed origins (Install) to show the chat here.`,
    ],
  ]);

  // Allowed from the install screen, the site shows the launcher.
  await page.goto(`${base}/bot/install?bot_id=${bot.id}`);
  await page.getByRole('row', { name: host.origin }).getByRole('button', { name: 'Allow' }).click();
  await page.getByRole('button', { name: 'Save origins' }).click();
  await expect(page.getByText('The allowed origins were saved.')).toBeVisible();
  // A new visitor (this browser keeps the loader it fetched for up to a minute, as configurations are).
  const visitor = await browser.newPage();
  await visitor.goto(host.page(bot.id));
  await expect(launcher(visitor, bot.id)).toBeVisible();
  await visitor.close();
});
