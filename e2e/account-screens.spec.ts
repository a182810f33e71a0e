import { APP_ID_HEADER, AUTH_MESSAGES, CONSOLE_APP_ID } from '@omnibot/contracts';
import type { Page } from '@playwright/test';
import {
  expectLandedAfterSignIn,
  linkIn,
  registerVerified,
  signInWithApi,
  STRONG_PASSWORD,
  submitSignIn,
} from './support/identity';
import { expect, testWithMail as test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform tenant owns example.com (ADMIN_EMAIL's domain), so these addresses may join it.
const MASTER = { email: 'admin@example.com', password: 'Account-Screens-Master-Passw0rd' };
const PLATFORM_NAME = 'Account Screens Platform';
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password, PLATFORM_TENANT_NAME: PLATFORM_NAME } });

async function logout(page: Page) {
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'LOGOUT' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test.describe('account screens', () => {
  test('credential: created after a confirmation, the secret shown once, only masked after a reload', async ({
    page,
    baseURL,
    request,
  }) => {
    await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
    await page.goto('/credential');
    await expect(page.getByRole('heading', { name: 'No API credential yet' })).toBeVisible();

    await page.getByRole('button', { name: 'Create credential' }).click();
    const confirm = page.getByRole('dialog', { name: 'Create the API credential?' });
    await expect(confirm).toContainText('The secret is shown once');
    await confirm.getByRole('button', { name: 'Create credential' }).click();

    const reveal = page.getByRole('dialog', { name: 'Copy the API secret now' });
    await expect(reveal).toContainText('It will not be shown again');
    await expect(reveal.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    const values = reveal.locator('.mantine-Code-root');
    const key = defined(await values.nth(0).textContent()).trim();
    const secret = defined(await values.nth(1).textContent()).trim();
    expect(secret).toMatch(/^[^*]{20,}$/);

    // The revealed secret is the real one: the account service takes it as HTTP Basic key:secret.
    const tenantId = await page.evaluate(() => sessionStorage.getItem('tenant_id'));
    const basic = await request.get(`/v1/Account/${tenantId}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`,
        [APP_ID_HEADER]: CONSOLE_APP_ID,
      },
    });
    expect(basic.status()).toBe(200);
    expect(await basic.json()).toEqual([expect.objectContaining({ name: PLATFORM_NAME })]);

    await reveal.getByRole('button', { name: 'I have copied the secret' }).click();
    await expect(reveal).toBeHidden();
    const masked = `****${secret.slice(-4)}`;
    await expect(page.getByLabel('Secret', { exact: true })).toHaveText(masked);
    expect(await page.content()).not.toContain(secret);

    await page.reload();
    await expect(page.getByLabel('Key', { exact: true })).toHaveText(key);
    await expect(page.getByLabel('Secret', { exact: true })).toHaveText(masked);
    expect(await page.content()).not.toContain(secret);
    await expect(page.getByRole('button', { name: 'Create credential' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Regenerate secret' })).toBeVisible();
  });

  test('a master invites a user; the mailed link leads to /bot/password, and the new user signs in', async ({
    page,
    baseURL,
    mailbox,
  }) => {
    const email = 'ivy.invited@example.com';
    const password = 'Juniper-Falcon-Ledger-64';
    await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
    await page.goto('/user');
    await page.getByRole('link', { name: 'Add user' }).click();
    await expect(page).toHaveURL(/\/user\/add$/);

    // A domain nobody allowed is refused with the server's message.
    await page.getByLabel(/^E-mail/).fill('ivy@not-allowed.test');
    await page.getByLabel(/^First name/).fill('Ivy');
    await page.getByLabel(/^Last name/).fill('Invited');
    await page.getByRole('button', { name: 'Add user and send invitation' }).click();
    await expect(page.getByText(AUTH_MESSAGES.domainNotAllowed).first()).toBeVisible();

    await page.getByLabel(/^E-mail/).fill(email);
    await page.getByRole('button', { name: 'Add user and send invitation' }).click();
    await expect(page.getByText(`An invitation mail was sent to ${email}`, { exact: false })).toBeVisible();
    await expect(page).toHaveURL(/\/user$/);
    await page.getByRole('textbox', { name: 'Search users' }).fill('ivy');
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table).toContainText(email);
    await expect(table).toContainText('Ivy Invited');

    const mail = await mailbox.waitForMail({ to: email, subject: 'invited' });
    const link = linkIn(mail, '/api/auth/reset-password/');
    await logout(page);
    await page.goto(link);
    await expect(page).toHaveURL(/\/bot\/password\?token=[\w-]+$/);
    await page.getByLabel(/^New password/).fill(password);
    await page.getByLabel('Confirm new password').fill(password);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('link', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await submitSignIn(page, email, password);
    await expectLandedAfterSignIn(page);
    await expect(page.getByRole('banner')).toContainText('Ivy Invited');
    await expect(page.getByRole('banner')).toContainText(PLATFORM_NAME);
  });

  test('a name changed on /profile shows in the header, also after a reload', async ({
    page,
    request,
    mailbox,
    baseURL,
  }) => {
    const email = 'pat.profile@example.com';
    await registerVerified(request, mailbox, defined(baseURL), { email, name: 'Pat Profile' });
    await signInWithApi(page, defined(baseURL), email, STRONG_PASSWORD);
    await page.goto('/profile');
    const header = page.getByRole('banner');
    await expect(header).toContainText('Pat Profile');

    await page.getByLabel(/^First name/).fill('Patricia');
    await page.getByLabel(/^Last name/).fill('Profiler');
    await page.getByLabel(/^Mobile phone/).fill('+351 912 345 678');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Your profile was saved.')).toBeVisible();
    await expect(header).toContainText('Patricia Profiler');

    await page.reload();
    await expect(page.getByRole('banner')).toContainText('Patricia Profiler');
    await expect(page.getByLabel(/^Mobile phone/)).toHaveValue('+351 912 345 678');
  });

  test('a password changed on /profile is the one that signs in', async ({
    page,
    request,
    mailbox,
    baseURL,
  }) => {
    const email = 'cora.change@example.com';
    const newPassword = 'Meadow-Anchor-Lattice-75';
    await registerVerified(request, mailbox, defined(baseURL), { email, name: 'Cora Change' });
    await signInWithApi(page, defined(baseURL), email, STRONG_PASSWORD);
    await page.goto('/profile');

    const section = page.getByRole('region', { name: 'Change password' });
    await section.getByLabel(/^Current password/).fill('Not-My-Password-123');
    await section.getByLabel(/^New password/).fill('password123');
    await expect(section.getByTestId('password-strength')).toContainText('(not met yet)');
    await section.getByLabel(/^New password/).fill(newPassword);
    await section.getByLabel(/^Confirm new password/).fill(newPassword);
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByRole('alert')).toContainText(
      `${AUTH_MESSAGES.wrongCurrentPassword} (auth/wrong-password)`,
    );

    await section.getByLabel(/^Current password/).fill(STRONG_PASSWORD);
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password was changed.')).toBeVisible();
    await expect(section.getByLabel(/^Current password/)).toHaveValue('');

    await logout(page);
    await submitSignIn(page, email, STRONG_PASSWORD);
    // The toasts of /profile may still be up: look for the sign-in form's own alert.
    await expect(page.getByRole('alert').filter({ hasText: AUTH_MESSAGES.wrongCredentials })).toBeVisible();
    await submitSignIn(page, email, newPassword);
    await expectLandedAfterSignIn(page);
    await expect(page.getByRole('banner')).toContainText('Cora Change');
  });
});
