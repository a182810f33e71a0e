import type { Browser, FrameLocator, Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { api, createAnsweringBot, startHostSite, type HostSite } from './support/bots';
import { signInWithApi } from './support/identity';
import { principalFactory, type Principal } from './support/principals';
import { expect, testWithMail as test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform master creates an organisation holding casesummary (and omnirag, so its bot answers from knowledge),
// with an administrator who configures the summaries and an agent who answers in the inbox.
const MASTER = { email: 'admin@example.com', password: 'Case-Summary-Journey-Master-Passw0rd' };
test.use({
  serverEnv: {
    ADMIN_PASSWORD: MASTER.password,
    WIDGET_RATE_LIMIT_CONVERSATION: '1000',
    WIDGET_RATE_LIMIT_IP: '1000',
  },
});

const CARD = '4111 1111 1111 1111';
const EMAIL = 'jane.doe@example.com';
const MASKED_CARD = '*'.repeat(CARD.length);
const FALLBACK = 'I cannot help with that, but a person can.';
const REFUNDS = {
  type: 'text' as const,
  title: 'Refunds',
  text: 'Double charges are refunded within five working days. Refunds are listed under Orders in your account.',
};
/** The bot masks card numbers and e-mail addresses in what it stores, and so in what any summary reads. */
const MASKING = {
  enableMasking: true,
  patterns: [
    { name: 'Card number', regExpression: '', preset: 'card' },
    { name: 'E-mail', regExpression: '', preset: 'email' },
  ],
};

let admin: Principal;
let agent: Principal;

test.beforeAll(async ({ playwright, mailbox, server }) => {
  test.setTimeout(120_000);
  const request = await playwright.request.newContext({ baseURL: server.url });
  const signIn = await request.post('/api/auth/sign-in/email', {
    data: MASTER,
    headers: { origin: server.url },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const { createOrganisation, createPerson } = principalFactory(request, mailbox, server.url);
  const tenantId = await createOrganisation({
    name: 'Harbour Refunds',
    domain: 'harbour-refunds.test',
    codes: ['casesummary', 'omnirag'],
  });
  admin = await createPerson(tenantId, 'admin@harbour-refunds.test', 'administrator', 'administrator');
  agent = await createPerson(tenantId, 'agent@harbour-refunds.test', 'agent', 'agent');
  await request.dispose();
});

/** A page of its own browser context, signed in as `who`. */
async function signedIn(browser: Browser, baseURL: string, who: Principal): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInWithApi(page, baseURL, who.email, who.password);
  return page;
}

const chat = (page: Page, botId: string): FrameLocator =>
  page.frameLocator(`[data-omnibot-frame="${botId}"]`);

async function say(frame: FrameLocator, text: string) {
  await frame.getByRole('textbox', { name: 'Message' }).fill(text);
  await frame.getByRole('button', { name: 'Send', exact: true }).click();
}

/** The summary's sections as label and value pairs, as a reader sees them. */
async function sectionsOf(summary: ReturnType<Page['getByRole']>) {
  const terms = await summary.getByRole('term').allTextContents();
  const values = await summary.getByRole('definition').allTextContents();
  return terms.map((term, index) => `${term}: ${values[index] ?? ''}`);
}

/** Fails when the page's markup holds the card number or the e-mail address in clear anywhere. */
async function expectNothingInClear(page: Page) {
  const html = await page.content();
  expect(html).not.toContain('4111');
  expect(html).not.toContain(EMAIL);
}

test('an administrator configures summaries, a visitor hands over, the agent reads the masked summary first, and the dashboard keeps it', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const base = defined(baseURL);
  const host: HostSite = await startHostSite(base);
  await signInWithApi(page, base, admin.email, admin.password);
  try {
    const { botId } = await createAnsweringBot(page, base, {
      name: 'Refund desk',
      sources: [REFUNDS],
      config: {
        install: { allowedOrigins: [host.origin] },
        masking: MASKING,
        engines: { enableliveagent: true, liveagent: 'inbox', fallbackText: FALLBACK },
      },
    });
    await api(page, base, 'PATCH', `/v1/bots/${botId}`, { enabled: true });

    // The administrator adds a configuration for the bot: no chat model (extractive), every section, at hand-over.
    await page.goto('/cs/config/add');
    await expect(
      page.getByRole('heading', { name: 'Add case-summary configuration', level: 1 }),
    ).toBeVisible();
    await page.getByRole('textbox', { name: 'Name' }).fill('Refund summaries');
    await page.getByRole('combobox', { name: 'Bots', exact: true }).click();
    await page.getByRole('option', { name: 'Refund desk' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('combobox', { name: 'Chat model', exact: true })).toHaveValue('');
    for (const section of ['Issue', 'Bot answered', 'Still open', 'Sentiment']) {
      await expect(page.getByRole('checkbox', { name: section })).toBeChecked();
    }
    await expect(page.getByRole('checkbox', { name: 'At hand-over' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'At close' })).not.toBeChecked();
    await page.getByRole('button', { name: 'Create configuration' }).click();
    await expect(page.getByText('Configuration "Refund summaries" was created.')).toBeVisible();
    await expect(page).toHaveURL(/\/cs\/config\/view\?id=[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Refund summaries', level: 1 })).toBeVisible();
    await expect(
      page.getByText(/Model: none \(extractive\) · At hand-over · at most 800 characters/),
    ).toBeVisible();

    // The visitor, in a browser of their own on the customer's site, writes a card number and an e-mail address.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(host.page(botId));
    await visitor.locator(`[data-omnibot="${botId}"] button`).first().click();
    const frame = chat(visitor, botId);
    await say(
      frame,
      `My card ${CARD} was charged twice. When are double charges refunded? Write to me at ${EMAIL} please.`,
    );
    await expect(frame.getByText(/refunded within five working days/).first()).toBeVisible();
    await frame.getByRole('button', { name: 'Talk to an agent' }).first().click();
    await expect(frame.getByText(/Waiting for an agent… You are number 1 in the queue\./)).toBeVisible();
    await visitorContext.close();

    // The agent opens the conversation: its header shows the summary, masked, before the transcript.
    const agentPage = await signedIn(browser, base, agent);
    await agentPage.goto('/inbox');
    const list = agentPage.getByRole('list', { name: 'Conversations' });
    await list.getByText('Refund desk').click();
    const conversation = agentPage.getByRole('region', { name: 'Conversation' });
    const summary = conversation.getByRole('region', { name: 'Case summary' });
    await expect(summary).toBeVisible();
    await expect(summary).toContainText(/At hand-over · from the transcript · /);
    const sections = await sectionsOf(summary);
    expect(sections.map((line) => line.split(':')[0])).toEqual([
      'Issue',
      'Bot answered',
      'Still open',
      'Sentiment',
    ]);
    expect(defined(sections[0])).toContain(`My card ${MASKED_CARD} was charged twice.`);
    expect(defined(sections[1])).toMatch(/refunded within five working days/);
    expect(defined(sections[3])).toMatch(/^Sentiment: (positive|neutral|negative)$/);
    await expect(conversation.getByRole('list', { name: 'Transcript' })).toContainText(
      `My card ${MASKED_CARD} was charged twice.`,
    );
    await expectNothingInClear(agentPage);
    await expect(agentPage.locator('[aria-busy="true"]')).toHaveCount(0);
    expect(await seriousViolations(agentPage)).toEqual([]);
    // On a phone the summary wraps inside the conversation: nothing runs off the side of the screen.
    await agentPage.setViewportSize({ width: 375, height: 800 });
    await expect(summary).toBeVisible();
    const overflow = await agentPage.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await agentPage.context().close();

    // The bot dashboard's transcript drawer shows the same summary.
    await page.goto(`/bot/dashboard?bot=${botId}`);
    await page
      .getByRole('button', { name: /^Open the transcript: My card/ })
      .first()
      .click();
    const drawer = page.getByRole('dialog', { name: 'Conversation' });
    const kept = drawer.getByRole('region', { name: 'Case summary at hand-over' });
    await expect(kept).toBeVisible();
    expect(await sectionsOf(kept)).toEqual(sections);
    await expectNothingInClear(page);
  } finally {
    await host.close();
  }
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`the case-summary pages in the ${colorScheme} theme`, () => {
    test.use({ colorScheme, viewport: { width: 375, height: 800 } });

    test('fit a 375 px screen and have no serious accessibility finding', async ({ page, baseURL }) => {
      const base = defined(baseURL);
      await signInWithApi(page, base, admin.email, admin.password);
      const bot = await api<{ id: string }>(page, base, 'POST', '/v1/bots', {
        name: `Pier desk ${colorScheme}`,
      });
      const config = await api<{ id: string }>(page, base, 'POST', '/v1/case-summary-configs', {
        name: `Pier summaries ${colorScheme} with a name long enough to need more than one line on a phone`,
        bot_ids: [bot.id],
      });

      const check = async (path: string, ready: () => Promise<void>) => {
        await page.goto(path);
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
        await ready();
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), path).toEqual([]);
      };

      await check('/cs/config', async () => {
        await expect(page.getByRole('heading', { name: 'Case summaries', level: 1 })).toBeVisible();
        await expect(
          page.getByRole('link', { name: new RegExp(`^Pier summaries ${colorScheme}`) }),
        ).toBeVisible();
      });
      await check('/cs/config/add', async () => {
        await expect(page.getByRole('button', { name: 'Create configuration' })).toBeVisible();
      });
      await check(`/cs/config/view?id=${config.id}`, async () => {
        await expect(page.getByRole('heading', { name: /^Pier summaries/, level: 1 })).toBeVisible();
        await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(/^Pier summaries/);
      });
    });
  });
}
