import type { Page } from '@playwright/test';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform master's organisation holds the omnirag subscription, so every bot screen is in its menu.
const MASTER = { email: 'admin@example.com', password: 'Bot-Screens-Journey-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password } });

test.beforeEach(async ({ page, baseURL }) => {
  await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
});

/** Fails when anything on the page sticks out sideways (checked only on the narrow run). */
async function expectFitsWidth(page: Page, narrow: boolean) {
  if (!narrow) return;
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `horizontal overflow on ${page.url()}`).toBeLessThanOrEqual(0);
}

async function save(page: Page, button: string, toast: string | RegExp) {
  await page.getByRole('button', { name: button, exact: true }).click();
  await expect(page.getByText(toast)).toBeVisible();
}

async function journey(page: Page, tag: string, narrow: boolean) {
  const name = `${tag} helper`;

  // Manage: create a bot, which opens it in the editor.
  await page.goto('/bot/manage');
  await expect(page.getByRole('heading', { name: 'Bots', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Create bot' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create a bot' });
  await create.getByRole('textbox', { name: 'Name' }).fill(name);
  await create.getByRole('button', { name: 'Create bot' }).click();
  await expect(page).toHaveURL(/\/bot\/customize\?bot_id=[0-9a-f-]{36}$/);
  const botId = defined(new URL(page.url()).searchParams.get('bot_id'));

  // Customize: the widget is named after the bot; change the description and a dark colour, then save.
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(name);
  await expect(page.getByTitle('Live preview of the widget')).toHaveAttribute(
    'src',
    `/widget/?preview=1&bot=${botId}`,
  );
  await page.getByRole('textbox', { name: 'Description' }).fill('Answers about orders.');
  await expect(page.getByText('21 / 165 characters')).toBeVisible();
  await page.getByRole('button', { name: 'Appearance' }).click();
  await page.getByText('Dark mode', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Visitor bubble', exact: true }).fill('#123456');
  await expectFitsWidth(page, narrow);
  await save(page, 'Save', `The settings of "${name}" were saved.`);
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue('Answers about orders.');

  // Install: the snippet for this bot, and one allowed origin.
  await page.goto(`/bot/install?bot_id=${botId}`);
  const origin = new URL(page.url()).origin;
  await expect(
    page.getByText(`<script src="${origin}/widget.js?bot=${botId}" data-bot="${botId}" async></script>`, {
      exact: true,
    }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recently loaded from' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Origin to allow' }).fill('https://shop.example.com/');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText(/An allowed origin is a scheme, host and optional port only/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Origin to allow' }).fill('https://shop.example.com');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFitsWidth(page, narrow);
  await save(page, 'Save origins', 'The allowed origins were saved.');

  // Welcome message: one welcome menu item.
  await page.goto(`/bot/config/message?bot_id=${botId}`);
  await page.getByRole('button', { name: 'Add welcome item' }).click();
  await page.getByRole('textbox', { name: 'Label (welcome item 1)' }).fill('Orders');
  await page.getByRole('textbox', { name: 'Text sent (welcome item 1)' }).fill('Where is my order?');
  await expectFitsWidth(page, narrow);
  await save(page, 'Save', 'The welcome message was saved.');

  // Language and RAG: a fallback language.
  await page.goto(`/bot/config/rag?bot_id=${botId}`);
  await page.getByRole('combobox', { name: 'Fallback language' }).click();
  await page.getByRole('option', { name: 'French (fr)' }).click();
  await expectFitsWidth(page, narrow);
  await save(page, 'Save', 'The language and RAG settings were saved.');

  // Back on the list: switch it off, copy it, delete the copy.
  await page.goto('/bot/manage');
  const card = page.getByRole('listitem', { name, exact: true });
  await card.getByRole('switch', { name: `${name} enabled` }).click({ force: true });
  await expect(page.getByText(`"${name}" is disabled: its widget no longer loads.`)).toBeVisible();
  await card.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Duplicate' }).click();
  const copy = page.getByRole('listitem', { name: `Copy of ${name}` });
  await expect(copy).toBeVisible();
  await expectFitsWidth(page, narrow);
  await copy.getByRole('button', { name: `More actions for Copy of ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`Bot "Copy of ${name}" was deleted.`)).toBeVisible();
  await expect(copy).toHaveCount(0);
}

test.describe('the bot screens', () => {
  test('create, customise, install, welcome, language, then switch off, copy and delete (desktop, light)', async ({
    page,
  }) => {
    await page.addInitScript(() => window.localStorage.setItem('appMode', 'light'));
    await journey(page, 'Desk', false);
  });

  test.describe('on a 375 px wide screen in dark mode', () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test('the same journey works and no page is wider than the screen', async ({ page }) => {
      await page.addInitScript(() => window.localStorage.setItem('appMode', 'dark'));
      await journey(page, 'Phone', true);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    });
  });
});
