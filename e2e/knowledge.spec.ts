import type { Page } from '@playwright/test';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform master's organisation holds the omnirag subscription, so the Knowledge Base menu is offered.
const MASTER = { email: 'admin@example.com', password: 'Knowledge-Spec-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password } });

const TEXT =
  'Opening hours\n\nThe shop opens at nine in the morning and closes at six in the evening, Monday to Saturday.';

/** Create a knowledge base, add a text source, watch it become ready without a reload, open its chunks. */
async function createAndIndex(page: Page, name: string) {
  await page.goto('/knowledge');
  await expect(page.getByRole('heading', { name: 'Knowledge bases', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Create knowledge base' }).first().click();
  await expect(page).toHaveURL(/\/knowledge\/add$/);
  await expect(page.getByRole('textbox', { name: 'Words per chunk' })).toHaveValue('350');

  await page.getByRole('button', { name: 'Create knowledge base' }).click();
  await expect(page.getByText('The name is required')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Create knowledge base' }).click();
  await expect(page.getByText(`Knowledge base "${name}" was created.`)).toBeVisible();
  await expect(page).toHaveURL(/\/knowledge\/view\?id=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

  await page.getByRole('textbox', { name: 'Title' }).fill('Shop hours');
  await page.getByRole('textbox', { name: 'Text' }).fill(TEXT);
  await page.getByRole('button', { name: 'Add source' }).click();
  await expect(page.getByText('"Shop hours" was added and is being indexed.')).toBeVisible();
  await expect(page.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });

  await page.getByRole('button', { name: 'Show the chunks of Shop hours' }).click();
  const drawer = page.getByRole('dialog', { name: 'Chunks of Shop hours' });
  await expect(drawer.getByTestId('knowledge-chunk').first()).toContainText('The shop opens at nine');
}

test.describe('knowledge bases', () => {
  test.beforeEach(async ({ page, baseURL }) =>
    signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password),
  );

  test('create one, add a text source, see it become ready and read its chunks (light mode)', async ({
    page,
  }) => {
    await page.addInitScript(() => window.localStorage.setItem('appMode', 'light'));
    await createAndIndex(page, 'Shop facts');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  test.describe('on a 375 px wide screen in dark mode', () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test('the same flow works and nothing is wider than the screen', async ({ page }) => {
      await page.addInitScript(() => window.localStorage.setItem('appMode', 'dark'));
      await createAndIndex(page, 'Phone facts');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
      await page.keyboard.press('Escape');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    });
  });
});
