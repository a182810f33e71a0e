import type { Page } from '@playwright/test';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform master's organisation holds the omnirag subscription, so the Prompts menu is offered.
const MASTER = { email: 'admin@example.com', password: 'Prompts-Spec-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password } });

const FIRST = 'You are {{bot_name}}.\nAnswer {{question}} from the context.\n{{context}}';
const SECOND = 'You are {{bot_name}}.\nReply to {{question}} in {{language}}.\n{{context}}';

/** Compose a prompt, save a second version, compare the two, restore the first. */
async function composeCompareRestore(page: Page, name: string) {
  await page.goto('/prompt');
  await expect(page.getByRole('heading', { name: 'Prompts', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Create prompt' }).click();
  await expect(page).toHaveURL(/\/prompt\/compose$/);

  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  const template = page.getByRole('textbox', { name: 'Template' });
  await template.fill('Hello {{customer}}');
  await expect(
    page.getByText('Unknown variable {{customer}}; use question, context, history, language or bot_name.'),
  ).toBeVisible();
  await template.fill(FIRST);
  await expect(page.getByText(/Unknown variable/)).toBeHidden();
  await expect(page.getByTestId('prompt-preview')).toContainText(
    'Answer What are your opening hours? from the context.',
  );
  await page.getByRole('button', { name: 'Save prompt' }).click();
  await expect(page.getByText(`Prompt "${name}" was saved as version 1.`)).toBeVisible();
  await expect(page).toHaveURL(/\/prompt\/detail\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText('Version 1 is in use.')).toBeVisible();
  await expect(template).toHaveValue(FIRST);
  await template.fill(SECOND);
  await expect(template).toHaveValue(SECOND);
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await expect(page.getByText('Saved as version 2.')).toBeVisible();
  await expect(page.getByText('Version 2 is in use.')).toBeVisible();

  const before = page.getByRole('region', { name: 'Version 1', exact: true });
  const after = page.getByRole('region', { name: 'Version 2 (current)' });
  await expect(before.locator('li[data-diff="removed"]')).toHaveText([
    /removed: Answer \{\{question\}\} from the context\.$/,
  ]);
  await expect(after.locator('li[data-diff="added"]')).toHaveText([
    /added: Reply to \{\{question\}\} in \{\{language\}\}\.$/,
  ]);
  await expect(before.locator('li[data-diff="same"]')).toHaveCount(2);

  await page.getByRole('button', { name: 'Restore version 1' }).click();
  const confirm = page.getByRole('dialog', { name: 'Restore version 1?' });
  await expect(confirm).toContainText('saved as version 3');
  await confirm.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('Version 1 restored as version 3.')).toBeVisible();
  await expect(page.getByText('Version 3 is in use.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Template' })).toHaveValue(FIRST);
}

test.describe('prompts', () => {
  test.beforeEach(async ({ page, baseURL }) =>
    signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password),
  );

  test('compose, save a second version, see the diff and restore the first (light mode)', async ({
    page,
  }) => {
    await page.addInitScript(() => window.localStorage.setItem('appMode', 'light'));
    await composeCompareRestore(page, 'Help desk answers');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    const name = 'Help desk answers';
    await page.goto(`/prompt?q=${encodeURIComponent(name)}`);
    await expect(page.getByRole('link', { name })).toBeVisible();
  });

  test.describe('on a 375 px wide screen in dark mode', () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test('the same flow works, with the diff stacked and nothing wider than the screen', async ({ page }) => {
      await page.addInitScript(() => window.localStorage.setItem('appMode', 'dark'));
      await composeCompareRestore(page, 'Phone answers');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
      const before = page.getByRole('region', { name: /^Version 2$/ });
      const after = page.getByRole('region', { name: /^Version 3 \(current\)$/ });
      await expect(after).toBeVisible();
      const [left, right] = [defined(await before.boundingBox()), defined(await after.boundingBox())];
      expect(right.y).toBeGreaterThanOrEqual(left.y + left.height);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    });
  });
});
