import { AUTH_MESSAGES } from '@omnibot/contracts';
import { expect, test } from './support/server';
import { expectLandedAfterSignIn, submitSignIn } from './support/identity';
import { defined } from '../apps/console/src/test/defined';

// Without ADMIN_PASSWORD the first start prints a one-time password for the master. A server of its own (the
// tenant name makes this worker's environment unique), because this journey changes the master's password.
const PLATFORM_NAME = 'First Start Platform';
test.use({ serverEnv: { PLATFORM_TENANT_NAME: PLATFORM_NAME } });

test('the master signs in with the printed one-time password, must choose a new one, then reaches the console', async ({
  page,
  server,
}) => {
  const [, oneTimePassword] = await server.waitForLog(/"oneTimePassword":"([^"]+)"/);
  const newPassword = 'Orchard-Beacon-Tundra-53';

  await page.goto('/extra/search?q=Users');
  await expect(page).toHaveURL(/\/login\?next=%2Fextra%2Fsearch%3Fq%3DUsers$/);
  await submitSignIn(page, 'admin@example.com', defined(oneTimePassword));

  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByText(AUTH_MESSAGES.passwordChangeRequired)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden();
  await page.getByLabel('Current (one-time) password').fill(defined(oneTimePassword));
  await page.getByLabel(/^New password/).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  // The platform tenant (type "1") has no credential: the start-up flow tolerates it.
  const credential = page.waitForResponse((response) =>
    /\/v1\/Account\/[^/]+\/credential$/.test(response.url()),
  );
  await page.getByRole('button', { name: 'Set new password' }).click();
  expect(await (await credential).json()).toEqual({ code: 404, message: 'No credential' });

  await expect(page).toHaveURL(/\/extra\/search\?q=Users$/);
  const header = page.getByRole('banner');
  await expect(header).toContainText(PLATFORM_NAME);
  await expect(header).toContainText('Platform Administrator');
  // The platform master's menu: Models is offered to a master at level 1 or 2 only.
  await expect(
    page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Models' }),
  ).toBeVisible();

  // Still signed in after a reload; then out, and in again with the new password straight to the console.
  await page.reload();
  await expect(page.getByRole('banner')).toContainText('Platform Administrator');
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'LOGOUT' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitSignIn(page, 'admin@example.com', defined(oneTimePassword));
  await expect(page.getByRole('alert')).toContainText(AUTH_MESSAGES.wrongCredentials);
  await submitSignIn(page, 'admin@example.com', newPassword);
  await expectLandedAfterSignIn(page, 'getting-started');
  await expect(page.getByRole('banner')).toContainText('Platform Administrator');
});
