import type { Page } from '@playwright/test';
import { createAnsweringBot, startHostSite, api } from './support/bots';
import { expectLandedAfterSignIn, submitSignIn } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// A fresh server: the platform organisation has nothing set up yet.
const MASTER = { email: 'admin@example.com', password: 'Getting-Started-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password } });

const step = (page: Page, title: string) => page.getByRole('listitem').filter({ hasText: title });

async function expectSteps(page: Page, done: string[], open: string[]) {
  for (const title of done) await expect(step(page, title)).toContainText('Done');
  for (const title of open) await expect(step(page, title)).toContainText(/To do|Not available/);
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'LOGOUT' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function askOnDemoPage(page: Page, botId: string, question: string) {
  await page.goto(`/demo?bot=${botId}`);
  await page.locator(`[data-omnibot="${botId}"] button`).first().click();
  const chat = page.frameLocator(`[data-omnibot-frame="${botId}"]`);
  await chat.getByRole('textbox', { name: 'Message' }).fill(question);
  await chat.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(chat.getByText(/opens at nine/)).toBeVisible();
}

test('a new organisation lands on getting started, sees each step ticked from its data, then lands on the integrations', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(180_000);
  const base = defined(baseURL);
  await page.goto('/login');
  await submitSignIn(page, MASTER.email, MASTER.password);
  await expectLandedAfterSignIn(page, 'getting-started');
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
  await expect(page.getByText('0 of 6 steps done')).toBeVisible();
  await expect(
    step(page, 'Add a knowledge base').getByRole('link', { name: 'Open knowledge bases' }),
  ).toHaveAttribute('href', '/knowledge');
  // Nothing to install or try before there is a bot: no link into an empty screen.
  await expect(step(page, 'Install it on your site')).toContainText('Create a bot first.');
  await expect(step(page, 'Try it').getByRole('link')).toHaveCount(0);

  // Knowledge base, index, RAG and bot, made the way their screens make them.
  const host = await startHostSite(base);
  try {
    const { botId } = await createAnsweringBot(page, base, {
      name: 'Front desk',
      sources: [
        { type: 'text', title: 'Opening hours', text: 'The office opens at nine and closes at five.' },
      ],
      config: { install: { allowedOrigins: [host.origin] } },
    });
    await page.reload();
    await expect(page.getByText('4 of 6 steps done')).toBeVisible();
    await expectSteps(
      page,
      ['Add a knowledge base', 'Create an index', 'Create a RAG', 'Create a bot'],
      ['Install it on your site', 'Try it'],
    );
    await expect(
      step(page, 'Install it on your site').getByRole('link', { name: 'Get the snippet' }),
    ).toHaveAttribute('href', `/bot/install?bot_id=${botId}`);
    await expect(step(page, 'Try it').getByRole('link', { name: 'Open the demo page' })).toHaveAttribute(
      'href',
      `/demo?bot=${botId}`,
    );

    // Trying it on the demo page (this server's own origin) ticks "Try it", not the install.
    await askOnDemoPage(page, botId, 'When does the office open?');
    await page.goto('/getting-started');
    await expect(page.getByText('5 of 6 steps done')).toBeVisible();
    await expectSteps(page, ['Try it'], ['Install it on your site']);

    // A visitor on the customer's own site (another browser: nothing cached from the demo page) ticks the install.
    const visitor = await browser.newContext();
    try {
      const sitePage = await visitor.newPage();
      await sitePage.goto(host.page(botId));
      await sitePage.locator(`[data-omnibot="${botId}"] button`).first().click();
      const chat = sitePage.frameLocator(`[data-omnibot-frame="${botId}"]`);
      await chat.getByRole('textbox', { name: 'Message' }).fill('And when does it close?');
      await chat.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(chat.getByText(/closes at five/)).toBeVisible();
    } finally {
      await visitor.close();
    }
    await expect
      .poll(async () => {
        const origins = await api<{ items: { origin: string }[] }>(
          page,
          base,
          'GET',
          `/v1/bots/${botId}/origins`,
        );
        return origins.items.map((item) => item.origin);
      })
      .toContain(host.origin);
  } finally {
    await host.close();
  }
  await page.goto('/getting-started');
  await expect(page.getByText('6 of 6 steps done')).toBeVisible();

  // Done: sign-in lands on the integrations again, and the page stays one menu click away.
  await signOut(page);
  await submitSignIn(page, MASTER.email, MASTER.password);
  await expectLandedAfterSignIn(page, 'integrations');
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Getting Started' })
    .click();
  await expect(page.getByText('6 of 6 steps done')).toBeVisible();
});
