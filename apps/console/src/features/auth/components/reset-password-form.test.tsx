import { AUTH_MESSAGES } from '@omnibot/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPasswordChecker } from '../../../components/password-strength/password-strength';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { ResetPasswordForm } from './reset-password-form';

const STRONG = 'Velvet-Canyon-Harbor-42';

async function submitNewPassword(password: string, confirmation = password) {
  const user = userEvent.setup();
  await fill(user, screen.getByLabelText(/^New password/), password);
  await fill(user, screen.getByLabelText(/^Confirm new password/), confirmation);
  await user.click(screen.getByRole('button', { name: 'Set new password' }));
}

describe('ResetPasswordForm', () => {
  // The zxcvbn dictionaries take a while to parse the first time: not part of any one test.
  beforeAll(async () => {
    await loadPasswordChecker();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('explains an expired or used link and offers a new one', () => {
    renderRoute(<ResetPasswordForm token={null} linkError="INVALID_TOKEN" />, { path: '/bot/password' });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This password reset link has expired or was already used.',
    );
    expect(screen.getByRole('link', { name: 'Send me a new link' })).toHaveAttribute('href', '/bot/forgot');
  });

  it('checks the confirmation before sending', async () => {
    const api = stubAuthApi();
    renderRoute(<ResetPasswordForm token="tok" linkError={null} />, { path: '/bot/password' });
    await submitNewPassword(STRONG, `${STRONG}x`);
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    expect(api.calls()).toEqual([]);
  });

  it('sets the new password with the token, then offers to continue to sign-in', async () => {
    const api = stubAuthApi({
      handle: (_method, path) =>
        path === '/api/auth/reset-password' ? json(200, { status: true }) : undefined,
    });
    renderRoute(<ResetPasswordForm token="tok" linkError={null} />, { path: '/bot/password' });
    await submitNewPassword(STRONG);
    expect(await screen.findByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/login');
    expect(api.bodyOf('/api/auth/reset-password')).toEqual({
      token: 'tok',
      newPassword: STRONG,
    });
  });

  it('turns an invalid-action-code answer into the expired-link message', async () => {
    stubAuthApi({
      handle: (_method, path) =>
        path === '/api/auth/reset-password'
          ? json(400, { code: 'auth/invalid-action-code', message: AUTH_MESSAGES.invalidResetToken })
          : undefined,
    });
    renderRoute(<ResetPasswordForm token="used" linkError={null} />, { path: '/bot/password' });
    await submitNewPassword(STRONG);
    expect(await screen.findByRole('alert')).toHaveTextContent(AUTH_MESSAGES.invalidResetToken);
    expect(screen.getByRole('link', { name: 'Send me a new link' })).toHaveAttribute('href', '/bot/forgot');
  });
});
