import type { Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { api, startHostSite } from './support/bots';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// Business hours: a schedule made in the console shows on the calendar, and out of hours the widget says the bot's
// offline text instead of offering a person.
const MASTER = { email: 'admin@example.com', password: 'Schedules-Journey-Master-Passw0rd' };
const OFFLINE = 'Our harbour desk is closed now. We are back on Monday at nine.';
test.use({
  serverEnv: {
    ADMIN_PASSWORD: MASTER.password,
    WIDGET_RATE_LIMIT_CONVERSATION: '1000',
    WIDGET_RATE_LIMIT_IP: '1000',
  },
});

test.beforeEach(async ({ page, baseURL }) => {
  await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
});

/** This month as YYYY-MM, as the browser (and so the calendar) counts it. */
const thisMonth = (page: Page) =>
  page.evaluate(() => {
    const now = new Date();
    return `${String(now.getFullYear())}-${String(now.getMonth() + 1).padStart(2, '0')}`;
  });

const overflowOf = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 375],
] as const) {
  test.describe(`a schedule in the ${colorScheme} theme at ${String(width)} px`, () => {
    test.use({ colorScheme, viewport: { width, height: 900 } });

    test('is made with an overnight range and a holiday, and shows on the calendar', async ({ page }) => {
      const name = `Harbour hours ${colorScheme}`;
      const month = await thisMonth(page);
      const holiday = `${month}-15`;
      await page.goto('/schedule');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      await page.getByRole('link', { name: 'Add schedule' }).click();
      await expect(page).toHaveURL(/\/schedule\/add$/);

      // Nothing is sent while a field is wrong.
      await page.getByRole('button', { name: 'Add schedule' }).click();
      await expect(page.getByText('The name is required.')).toBeVisible();

      await page.getByRole('textbox', { name: /^Name/ }).fill(name);
      await page.getByRole('textbox', { name: 'Friday: opens at' }).fill('22:00');
      await page.getByRole('textbox', { name: 'Friday: closes at' }).fill('06:00');
      await expect(page.getByText('Overnight')).toBeVisible();
      await page.getByRole('button', { name: 'Add a date' }).click();
      await page.getByLabel(/^Date/).fill(holiday);
      await page.getByRole('textbox', { name: /^Label/ }).fill('Harbour festival');
      expect(await overflowOf(page)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Add schedule' }).click();
      const toast = page.getByText(`${name} was added.`);
      await expect(toast).toBeVisible();
      await expect(page).toHaveURL(/\/schedule\/view\?id=/);
      // The pages are checked without the toast (its grey description is Mantine's own).
      await page.getByRole('button', { name: 'Close the notification' }).click();
      await expect(toast).toBeHidden();

      await page.getByRole('link', { name: 'Calendar' }).click();
      await expect(page).toHaveURL(/\/calendar\?id=/);
      const festival = page.locator(`[data-date="${holiday}"]`);
      await expect(festival).toHaveAttribute('data-exception', 'true');
      await expect(festival.getByText('Harbour festival')).toBeVisible();
      await expect(festival.getByText('Closed')).toBeVisible();
      // Every Friday of the month opens at night, until the morning after (the holiday aside).
      const friday = page.locator('[data-date]:not([data-exception])', {
        hasText: '22:00–06:00 (overnight)',
      });
      expect(await friday.count()).toBeGreaterThanOrEqual(3);
      await expect(page.getByText('1 exception date this month, marked in orange.')).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect(await overflowOf(page)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);

      const title = page.getByRole('heading', { level: 2 });
      const shown = await title.textContent();
      await page.getByRole('button', { name: 'Next month' }).click();
      await expect(title).not.toHaveText(defined(shown));
      await expect(page.locator(`[data-date="${holiday}"]`)).toHaveCount(0);
      await page.getByRole('button', { name: 'Previous month' }).click();
      await expect(title).toHaveText(defined(shown));
      await expect(page.locator(`[data-date="${holiday}"]`)).toHaveAttribute('data-exception', 'true');
    });
  });
}

test('out of hours the widget shows the offline text and offers no person', async ({
  page,
  browser,
  baseURL,
}) => {
  const base = defined(baseURL);
  const host = await startHostSite(base);
  try {
    // No opening hours at all: closed whatever the time.
    const closed = await api<{ id: string; state: { open: boolean } }>(page, base, 'POST', '/v1/schedules', {
      name: 'Closed desk',
      time_zone: 'Europe/Berlin',
    });
    expect(closed.state.open).toBe(false);
    const bot = await api<{ id: string }>(page, base, 'POST', '/v1/bots', {
      name: 'Closed harbour desk',
      config: {
        install: { allowedOrigins: [host.origin] },
        engines: {
          enableliveagent: true,
          liveagent: 'inbox',
          schedule_id: closed.id,
          offlineText: OFFLINE,
          fallbackText: 'I cannot help with that.',
        },
      },
    });
    await api(page, base, 'PATCH', `/v1/bots/${bot.id}`, { enabled: true });

    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(host.page(bot.id));
    await visitor.locator(`[data-omnibot="${bot.id}"] button`).first().click();
    const frame = visitor.frameLocator(`[data-omnibot-frame="${bot.id}"]`);
    await expect(frame.getByText(OFFLINE)).toBeVisible();
    await frame.getByRole('textbox', { name: 'Message' }).fill('Where is my parcel?');
    await frame.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(frame.getByText('I cannot help with that.')).toBeVisible();
    await expect(frame.getByRole('button', { name: 'Talk to an agent' })).toHaveCount(0);
    await visitorContext.close();
  } finally {
    await host.close();
  }
});
