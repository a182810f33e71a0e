import { AUTH_MESSAGES } from '@omnibot/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { ForgotPasswordForm } from './forgot-password-form';

async function request(email: string) {
  const user = userEvent.setup();
  await fill(user, screen.getByLabelText(/E-mail/), email);
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
}

describe('ForgotPasswordForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the reset mail with this site as the continue URL and always reports success', async () => {
    const api = stubAuthApi({
      handle: (_method, path) =>
        path === '/api/auth/request-password-reset'
          ? json(200, { status: true, message: AUTH_MESSAGES.resetSuccess })
          : undefined,
    });
    renderRoute(<ForgotPasswordForm />, { path: '/bot/forgot' });
    await request('anyone@acme.test');
    expect(await screen.findByText(AUTH_MESSAGES.resetSuccess)).toBeInTheDocument();
    expect(api.bodyOf('/api/auth/request-password-reset')).toEqual({
      email: 'anyone@acme.test',
      redirectTo: `${window.location.origin}/bot/password`,
    });
  });

  it('checks the address first, and shows refusals with when to retry', async () => {
    const api = stubAuthApi({
      handle: (_method, path) =>
        path === '/api/auth/request-password-reset'
          ? json(
              429,
              { code: 'auth/too-many-requests', message: AUTH_MESSAGES.tooManyRequests },
              { 'retry-after': '3000' },
            )
          : undefined,
    });
    renderRoute(<ForgotPasswordForm />, { path: '/bot/forgot' });
    await request('nope');
    expect(await screen.findByText(AUTH_MESSAGES.invalidEmail)).toBeInTheDocument();
    expect(api.calls()).toEqual([]);

    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/E-mail/));
    await request('anyone@acme.test');
    expect(await screen.findByRole('alert')).toHaveTextContent(/Try again in 50 minutes/);
  });
});
