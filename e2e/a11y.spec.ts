import { flattenMenu, visibleMenu } from '@omnibot/contracts';
import type { Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { createAnsweringBot } from './support/bots';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform master sees every screen the menu offers anybody (level 1, every subscription).
const MASTER = { email: 'admin@example.com', password: 'A11y-Spec-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password } });

const SCHEMES = ['light', 'dark'] as const;
const ROUTES = flattenMenu(
  visibleMenu({
    level: '1',
    role: 'master',
    features: ['omnirag', 'omniassist', 'casesummary', 'subtenant'],
  }),
).map((entry) => entry.route);

/** Opens `path` and waits until its page has drawn its heading and finished loading its data. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

for (const colorScheme of SCHEMES) {
  test.describe(`in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the sign-in page has no serious accessibility finding', async ({ page }) => {
      await open(page, '/login');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('every console screen of the menu has no serious accessibility finding', async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(240_000);
      const base = defined(baseURL);
      await signInWithApi(page, base, MASTER.email, MASTER.password);
      // Screens with rows in their tables (striped rows with links), not only empty states.
      await createAnsweringBot(page, base, {
        name: `Contrast ${colorScheme}`,
        sources: [
          { type: 'text', title: 'Opening hours', text: 'The office opens at nine and closes at five.' },
        ],
      });
      const findings: string[] = [];
      for (const route of ROUTES) {
        await open(page, route);
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
        for (const finding of await seriousViolations(page)) findings.push(`${route} ${finding}`);
      }
      expect(findings).toEqual([]);
    });

    test('the widget chat window on the demo page has no serious accessibility finding', async ({
      page,
      baseURL,
    }) => {
      const base = defined(baseURL);
      await signInWithApi(page, base, MASTER.email, MASTER.password);
      const { botId } = await createAnsweringBot(page, base, {
        name: `Widget ${colorScheme}`,
        sources: [
          { type: 'text', title: 'Opening hours', text: 'The office opens at nine and closes at five.' },
        ],
      });
      await page.goto(`/demo?bot=${botId}`);
      await page.locator(`[data-omnibot="${botId}"] button`).first().click();
      const frame = page.frameLocator(`[data-omnibot-frame="${botId}"]`);
      await expect(frame.getByRole('textbox', { name: 'Message' })).toBeVisible();
      const chat = defined(page.frames().find((candidate) => candidate.url().includes('/widget/')));
      expect(await seriousViolations(chat)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
