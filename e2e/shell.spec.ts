import type { Page } from '@playwright/test';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The shell needs a signed-in user: the master, with a password set for scripted installs.
const MASTER = { email: 'admin@example.com', password: 'Shell-Spec-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password } });

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
  test.beforeEach(async ({ page, baseURL }) =>
    signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password),
  );

  test('Dark and Light display modes are remembered across reloads, without a flash', async ({ page }) => {
    // On every load, note the theme attribute as the <body> appears: a blocking script in <head> must
    // have set it by then, before the app's own scripts run and before anything is painted.
    await page.addInitScript(() => {
      const state = window as unknown as { schemeAtBody?: string | null };
      new MutationObserver((_records, observer) => {
        if (!document.body) return;
        state.schemeAtBody = document.documentElement.getAttribute('data-mantine-color-scheme');
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    const schemeAtBody = () =>
      page.evaluate(() => (window as unknown as { schemeAtBody?: string | null }).schemeAtBody);

    // A browser that asks for dark, so choosing Light changes something; the choice then outlives the preference.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await chooseDisplayMode(page, 'Light');
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
    expect(await appMode(page)).toBe('light');
    await page.reload();
    expect(await schemeAtBody()).toBe('light');
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'light');

    await chooseDisplayMode(page, 'Dark');
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(await appMode(page)).toBe('dark');
    await page.reload();
    expect(await schemeAtBody()).toBe('dark');
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(await appMode(page)).toBe('dark');
  });

  test("a first visit follows the browser's colour scheme, until a display mode is chosen", async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/profile');
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
    expect(await appMode(page)).toBeNull();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');

    await chooseDisplayMode(page, 'Light');
    await page.reload();
    await expect(colorScheme(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
    expect(await appMode(page)).toBe('light');
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
    await expect(nav).toBeVisible();
    await expect(nav).toBeInViewport();
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect(nav).toBeVisible();
    await expect(nav).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeVisible();
  });

  test.describe('on a 375 px wide screen', () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test('the burger opens the menu drawer; choosing an entry navigates and closes it', async ({ page }) => {
      // Not `/`: sign-in lands on /profile, and the entry chosen below must lead somewhere else.
      await page.goto('/extra/search');
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      const burger = page.getByRole('button', { name: 'Open menu' });
      await expect(burger).toBeVisible();
      await expect(nav).toBeHidden();
      await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeHidden();

      await burger.click();
      await expect(nav).toBeVisible();
      await expect(nav).toBeInViewport();
      await expect(burger).toHaveAttribute('aria-expanded', 'true');

      await nav.getByRole('link', { name: 'User Profile' }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await expect(nav).toBeHidden();
      await expect(burger).toHaveAttribute('aria-expanded', 'false');
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
    await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  });

  test('Enter on free text in the menu search opens the search results page', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Search menu' }).click();
    await page.getByPlaceholder('Search menu...').fill('no such entry');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/extra\/search\?q=no(\+|%20)such(\+|%20)entry$/);
  });

  test('the footer shows the current year', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Omnibot`);
  });
});

test.describe('server pages beside the console', () => {
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
