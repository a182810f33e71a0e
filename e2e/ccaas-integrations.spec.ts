import type { Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform master connects the contact centres its bots hand conversations over to, on a phone, in the dark.
const MASTER = { email: 'admin@example.com', password: 'Contact-Centre-Journey-Master-Passw0rd' };
const SECRET = 'e2e-connect-secret-never-shown-WXYZ';
test.use({
  serverEnv: { ADMIN_PASSWORD: MASTER.password },
  colorScheme: 'dark',
  viewport: { width: 375, height: 800 },
});

test.beforeEach(async ({ page, baseURL }) => {
  await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
});

async function expectNoOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `horizontal overflow on ${page.url()}`).toBeLessThanOrEqual(0);
}

test('adds a Genesys and a Connect contact centre, and sees the Connect secret only masked after a reload', async ({
  page,
}) => {
  await page.goto('/bot/integration/ccaas');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('heading', { name: 'No contact centre yet' })).toBeVisible();
  await expectNoOverflow(page);
  expect(await seriousViolations(page)).toEqual([]);

  // Genesys Cloud: checked before anything is sent, then added.
  await page.getByRole('link', { name: 'Add contact centre' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add contact centre' })).toBeVisible();
  await page.getByRole('button', { name: 'Add integration' }).click();
  await expect(page.getByText('The name is required')).toBeVisible();
  await page.getByRole('textbox', { name: /^name/i }).fill('Harbour Genesys');
  await page.getByRole('textbox', { name: /deployment id/i }).fill('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d');
  await page.getByRole('textbox', { name: /^origin/i }).fill('https://shop.example.com');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Connection failed' })).toBeVisible();
  await expectNoOverflow(page);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Add integration' }).click();
  await expect(page.getByText('Harbour Genesys was added.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Harbour Genesys' })).toBeVisible();
  await expect(page.getByText('Contact centre · Genesys Cloud')).toBeVisible();

  // Amazon Connect, with its secret.
  await page.goto('/bot/integration/add?kind=ccaas');
  await page.getByText('Amazon Connect', { exact: true }).click();
  await page.getByRole('textbox', { name: /^name/i }).fill('Harbour Connect');
  await page.getByRole('textbox', { name: /^region/i }).fill('eu-central-1');
  await page.getByRole('textbox', { name: /instance id/i }).fill('11111111-2222-4333-8444-555555555555');
  await page.getByRole('textbox', { name: /contact flow id/i }).fill('66666666-7777-4888-9999-000000000000');
  await page.getByRole('textbox', { name: /access key id/i }).fill('AKIAEXAMPLEKEY00001');
  await page.getByLabel(/^secret access key/i).fill(SECRET);
  await expectNoOverflow(page);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Add integration' }).click();
  await expect(page.getByText('Harbour Connect was added.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Harbour Connect' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Harbour Connect' })).toBeVisible();
  await expect(page.getByLabel('Stored Secret access key')).toHaveText('****WXYZ');
  expect(await page.content()).not.toContain(SECRET);
  // A new region needs the secret again before anything is saved.
  await page.getByRole('textbox', { name: /^region/i }).fill('us-east-1');
  await expect(page.getByRole('alert').filter({ hasText: 'must be entered again' })).toBeVisible();
  await expectNoOverflow(page);
  expect(await seriousViolations(page)).toEqual([]);

  // Both are listed, as cards on a phone.
  await page.goto('/bot/integration/ccaas');
  await expect(page.getByRole('link', { name: 'Harbour Genesys' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Harbour Connect' })).toBeVisible();
  await expectNoOverflow(page);
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto('/bot/integration/list');
  await expect(page.getByRole('link', { name: 'Harbour Connect' })).toBeVisible();
  expect(await page.content()).not.toContain(SECRET);
});
