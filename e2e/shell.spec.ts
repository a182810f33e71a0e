import type { Page } from '@playwright/test';
import { expect, test } from './support/server';

const colorScheme = (page: Page) => page.locator('html');
const appMode = (page: Page) => page.evaluate(() => window.localStorage.getItem('appMode'));

async function chooseDisplayMode(page: Page, mode: 'Dark' | 'Light') {
  await page.getByRole('button', { name: 'Theme settings' }).click();
  const panel = page.getByRole('dialog', { name: 'Theme panel' });
  await expect(panel).toBeVisible();
  await panel.getByRole('radio', { name: mode }).check();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
}

test.describe('console shell', () => {
  test('Dark and Light display modes are remembered across reloads, without a flash', async ({ page }) => {
    // Records every value the theme attribute takes, from the very first script on each load.
    await page.addInitScript(() => {
      const seen: (string | null)[] = [];
      (window as unknown as { schemeHistory: (string | null)[] }).schemeHistory = seen;
      new MutationObserver(() => {
        const value = document.documentElement?.getAttribute('data-mantine-color-scheme') ?? null;
        if (seen.at(-1) !== value) seen.push(value);
      }).observe(document, {
        attributes: true,
        subtree: true,
        attributeFilter: ['data-mantine-color-scheme'],
      });
    });
    const history = () =>
      page.evaluate(() => (window as unknown as { schemeHistory: (string | null)[] }).schemeHistory);

    await page.goto('/');
    await chooseDisplayMode(page, 'Dark');
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(await appMode(page)).toBe('dark');

    await page.reload();
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(await appMode(page)).toBe('dark');
    expect(await history()).not.toContain('light');

    await chooseDisplayMode(page, 'Light');
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.reload();
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
    expect(await appMode(page)).toBe('light');
    expect(await history()).not.toContain('dark');
  });

  test('an unknown path shows the error page with a way home', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).not.toHaveURL(/\/no\/such\/page$/);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeHidden();
  });

  test('the sidebar collapses and expands on desktop', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav).toBeInViewport();
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect(nav).not.toBeInViewport();
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect(nav).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeVisible();
  });

  test.describe('on a 375 px wide screen', () => {
    test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

    test('the burger opens the menu drawer, and choosing an entry navigates and closes it', async ({
      page,
    }) => {
      await page.goto('/');
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      await expect(nav).not.toBeInViewport();
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(nav).toBeInViewport();
      await nav.getByRole('link', { name: 'User Profile' }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await expect(nav).not.toBeInViewport();
      await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
    });
  });

  test('menu search finds "Users" from the header button and from Control+K', async ({ page }) => {
    await page.goto('/');
    const search = page.getByPlaceholder('Search menu...');

    await page.getByRole('button', { name: 'Search menu' }).click();
    await search.fill('Users');
    await page.getByRole('button', { name: /^Users/ }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(search).toBeHidden();

    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
    await page.keyboard.press('Control+K');
    await search.fill('Users');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/user$/);
    // /user is registered by a later issue; until then it is the error page.
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  test('the footer shows the current year', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()));
  });

  test('unknown API paths answer JSON 404s, never the console', async ({ request }) => {
    for (const path of ['/v1/no-such-thing', '/api/no-such-thing']) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(response.headers()['content-type'], path).toMatch(/^application\/json/);
      expect(await response.json(), path).toMatchObject({ code: 'not_found', message: expect.any(String) });
    }
  });

  test('the API documentation renders at /docs', async ({ page }) => {
    await page.goto('/docs');
    await expect(page.getByRole('heading', { name: /Omnibot API/ })).toBeVisible();
    await expect(page.getByText('/readyz').first()).toBeVisible();
  });
});
