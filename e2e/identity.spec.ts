import { AUTH_MESSAGES } from '@omnibot/contracts';
import { expect, testWithMail as test } from './support/server';
import {
  expectLandedAfterSignIn,
  linkIn,
  registerVerified,
  STRONG_PASSWORD,
  submitSignIn,
} from './support/identity';
import { defined } from '../apps/console/src/test/defined';

// The platform tenant owns example.com (ADMIN_EMAIL's domain), so these addresses join it.
const PLATFORM_NAME = 'Acme Platform';
test.use({ serverEnv: { PLATFORM_TENANT_NAME: PLATFORM_NAME } });

test.describe('identity journeys', () => {
  test('register, verify by mail, sign in, see the shell, LOGOUT', async ({ page, mailbox, server }) => {
    const email = 'rita.register@example.com';

    await page.goto('/register');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel(/^Password/).fill('password123');
    // The live strength meter judges it before anything is sent.
    await expect(page.getByTestId('password-strength')).toContainText('(not met yet)');
    await page.getByLabel(/^Password/).fill(STRONG_PASSWORD);
    await expect(page.getByTestId('password-strength')).not.toContainText('(not met yet)');
    await page.getByLabel('Name').fill('Rita Register');
    await page.getByRole('button', { name: 'Register' }).click();

    await expect(page).toHaveURL(/\/register\/success$/);
    await expect(page.getByRole('heading', { name: AUTH_MESSAGES.registrationSuccess })).toBeVisible();
    await expect(page.getByText(`We sent a verification link to ${email}`)).toBeVisible();

    // Not verified yet: signing in offers to send the mail again.
    await page.goto('/login');
    await submitSignIn(page, email, STRONG_PASSWORD);
    await expect(page.getByRole('alert')).toContainText(AUTH_MESSAGES.emailNotVerified);
    await expect(page.getByRole('button', { name: 'Send verification email again' })).toBeVisible();

    const mail = await mailbox.waitForMail({ to: email, subject: 'verify' });
    const link = linkIn(mail, '/api/auth/verify-email');
    expect(link.startsWith(`${server.url}/`)).toBe(true);

    // A damaged link is explained, with a way to get a new mail.
    await page.goto(link.replace(/token=[^&]+/, 'token=damaged'));
    await expect(page).toHaveURL(/\/login\?verified=1&error=INVALID_TOKEN$/);
    await expect(page.getByText('This verification link did not work')).toBeVisible();
    await expect(page.getByText('Email verified, you can sign in now')).toBeHidden();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send verification email again' }).click();
    await expect(page.getByText(`We sent a new verification link to ${email}`)).toBeVisible();
    await mailbox.waitForMail({ to: email, subject: 'verify' });

    await page.goto(link);
    await expect(page).toHaveURL(/\/login\?verified=1$/);
    await expect(page.getByText('Email verified, you can sign in now')).toBeVisible();

    await submitSignIn(page, email, STRONG_PASSWORD);
    await expectLandedAfterSignIn(page);
    const header = page.getByRole('banner');
    await expect(header).toContainText(PLATFORM_NAME);
    await expect(header).toContainText('Rita Register');
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
    expect(
      await page.evaluate(() => [
        sessionStorage.getItem('tenant_name'),
        sessionStorage.getItem('tenant_type'),
      ]),
    ).toEqual([PLATFORM_NAME, '1']);

    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'LOGOUT' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    // Signed out for real: the console sends us back, keeping where we wanted to go.
    await page.goto('/extra/search');
    await expect(page).toHaveURL(/\/login\?next=%2Fextra%2Fsearch$/);
  });

  test('forgot password, reset by mail, sign in with the new one', async ({
    page,
    request,
    mailbox,
    baseURL,
  }) => {
    const email = 'felix.forgetful@example.com';
    const newPassword = 'Lantern-Meadow-Quartz-87';
    await registerVerified(request, mailbox, defined(baseURL), { email, name: 'Felix Forgetful' });

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/bot\/forgot$/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText(AUTH_MESSAGES.resetSuccess)).toBeVisible();

    const mail = await mailbox.waitForMail({ to: email, subject: 'reset your password' });
    const link = linkIn(mail, '/api/auth/reset-password/');
    await page.goto(link);
    await expect(page).toHaveURL(/\/bot\/password\?token=[\w-]+$/);
    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('link', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await submitSignIn(page, email, STRONG_PASSWORD);
    await expect(page.getByRole('alert')).toContainText(AUTH_MESSAGES.wrongCredentials);
    await submitSignIn(page, email, newPassword);
    await expectLandedAfterSignIn(page);
    await expect(page.getByRole('banner')).toContainText('Felix Forgetful');

    // The link works once.
    await page.goto(link);
    await expect(page).toHaveURL(/\/bot\/password\?error=INVALID_TOKEN$/);
    await expect(page.getByRole('alert')).toContainText(
      'This password reset link has expired or was already used.',
    );
    await page.getByRole('link', { name: 'Send me a new link' }).click();
    await expect(page).toHaveURL(/\/bot\/forgot$/);
  });
});
