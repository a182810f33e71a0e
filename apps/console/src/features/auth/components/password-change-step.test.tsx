import { AUTH_MESSAGES } from '@omnibot/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPasswordChecker } from '../../../components/password-strength/password-strength';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { RequireSession } from './require-session';
import { SessionProvider } from './session-provider';

const NEW_PASSWORD = 'Velvet-Canyon-Harbor-42';

async function changePassword(current: string) {
  const user = userEvent.setup();
  await fill(user, await screen.findByLabelText(/^Current \(one-time\) password/), current);
  await fill(user, screen.getByLabelText(/^New password/), NEW_PASSWORD);
  await fill(user, screen.getByLabelText(/^Confirm new password/), NEW_PASSWORD);
  await user.click(screen.getByRole('button', { name: 'Set new password' }));
}

const renderGuarded = () =>
  renderRoute(
    <SessionProvider>
      <RequireSession>
        <h1>Console</h1>
      </RequireSession>
    </SessionProvider>,
    { path: '/extra/search' },
  );

describe('the password change step', () => {
  // The zxcvbn dictionaries take a while to parse the first time: not part of any one test.
  beforeAll(async () => {
    await loadPasswordChecker();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('blocks the console until a new password is set, then runs the start-up flow', async () => {
    let mustChange = true;
    const api = stubAuthApi({
      signedIn: true,
      handle: (method, path) => {
        if (path === '/v1/session' && mustChange) {
          return json(200, {
            user_id: 'u1',
            email: 'grace@acme.test',
            name: 'Grace Hopper',
            tenant_id: 't-acme',
            role: 'administrator',
            must_change_password: true,
          });
        }
        if (method === 'POST' && path === '/v1/me/password') {
          mustChange = false;
          return json(200, { code: 200, message: 'Your password was changed.' });
        }
        return undefined;
      },
    });
    renderGuarded();
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByText(new RegExp(AUTH_MESSAGES.passwordChangeRequired))).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Console' })).not.toBeInTheDocument();

    await changePassword('One-Time-Pass-123');
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeInTheDocument();
    expect(api.calls()).toContain('GET /v1/Account/t-acme/Subscription');
  });

  it('puts a wrong current password on its field', async () => {
    stubAuthApi({
      signedIn: true,
      mustChangePassword: true,
      handle: (_method, path) =>
        path === '/v1/me/password'
          ? json(400, { code: 'auth/wrong-password', message: AUTH_MESSAGES.wrongCurrentPassword })
          : undefined,
    });
    renderGuarded();
    await changePassword('not-it');
    expect(await screen.findByText(AUTH_MESSAGES.wrongCurrentPassword)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Current \(one-time\) password/)).toHaveAttribute('aria-invalid', 'true');
  });
});
