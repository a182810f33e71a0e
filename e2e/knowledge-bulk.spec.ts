import type { Page } from '@playwright/test';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform master's organisation holds the omnirag subscription, so the Knowledge Base menu is offered.
const MASTER = { email: 'admin@example.com', password: 'Knowledge-Bulk-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password } });

const CSV = 'question,answer\n"Do you ship abroad?","Yes, to the EU and the UK."\nGift cards?,At the till.\n';

/** Create a knowledge base, open Bulk add, paste Q&A pairs as CSV, add them and see them become ready. */
async function bulkAddPairs(page: Page, name: string, checkWidth: boolean) {
  await page.goto('/knowledge/add');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Create knowledge base' }).click();
  await expect(page).toHaveURL(/\/knowledge\/view\?id=[0-9a-f-]{36}$/);

  await page.getByRole('link', { name: 'Bulk add' }).click();
  await expect(page).toHaveURL(/\/knowledge\/bulk\?id=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: `Bulk add to ${name}`, level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Choose from storage' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose files' });
  await expect(picker.getByText(/No PDF, DOCX, HTML, Markdown, TXT or CSV files here/)).toBeVisible();
  if (checkWidth) {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  }
  await picker.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('tab', { name: 'Q&A from CSV' }).click();
  await page.getByRole('textbox', { name: 'CSV text' }).fill(`${CSV}Only a question\n`);
  const table = page.getByRole('table', { name: 'Q&A pairs' });
  await expect(table.getByText('Expected 2 columns (question, answer), found 1')).toBeVisible();
  if (checkWidth) {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  }
  await page.getByRole('textbox', { name: 'CSV text' }).fill(CSV);
  await expect(table.getByText('Gift cards?')).toBeVisible();
  await page.getByRole('button', { name: 'Add 2 sources' }).click();
  await expect(page.getByText('2 sources were added and are being indexed.')).toBeVisible();
  await expect(page).toHaveURL(/\/knowledge\/view\?id=[0-9a-f-]{36}$/);
  await expect(page.getByText('Ready', { exact: true })).toHaveCount(2, { timeout: 30_000 });
}

test.describe('adding knowledge sources in bulk', () => {
  test.beforeEach(async ({ page, baseURL }) =>
    signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password),
  );

  test('Q&A pairs from CSV become ready sources (light mode)', async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('appMode', 'light'));
    await bulkAddPairs(page, 'Bulk facts', false);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  test.describe('on a 375 px wide screen in dark mode', () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test('the same flow works and nothing is wider than the screen', async ({ page }) => {
      await page.addInitScript(() => window.localStorage.setItem('appMode', 'dark'));
      await bulkAddPairs(page, 'Phone bulk', true);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    });
  });
});
