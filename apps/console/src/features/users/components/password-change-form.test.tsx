import { AUTH_MESSAGES } from '@omnibot/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPasswordChecker } from '../../../components/password-strength/password-strength';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { PasswordChangeForm } from './password-change-form';

const CURRENT = 'Old-Lantern-Password-11';
const NEW_PASSWORD = 'Velvet-Canyon-Harbor-42';

function renderForm(answer?: () => Response) {
  const api = stubAuthApi({
    handle: (method, path) => (method === 'POST' && path === '/v1/me/password' ? answer?.() : undefined),
  });
  const onSignedOut = vi.fn();
  renderRoute(
    <PasswordChangeForm userInputs={['grace@acme.test', 'Grace', 'Hopper']} onSignedOut={onSignedOut} />,
  );
  return { api, onSignedOut };
}

/** The in-form alert or the toast (both have role alert) that says `text`. */
async function findAlert(text: string) {
  await waitFor(() =>
    expect(screen.getAllByRole('alert').some((alert) => alert.textContent?.includes(text))).toBe(true),
  );
}

async function fill(current: string, next: string, confirm = next) {
  const user = userEvent.setup();
  if (current) await user.type(screen.getByLabelText(/^Current password/), current);
  if (next) await user.type(screen.getByLabelText(/^New password/), next);
  if (confirm) await user.type(screen.getByLabelText(/^Confirm new password/), confirm);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

// Big forms typed into under a loaded CI machine: more than the default 5 s.
describe('PasswordChangeForm', () => {
  beforeAll(async () => {
    await loadPasswordChecker();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('checks every field before anything is sent', async () => {
    const { api } = renderForm();
    await fill('', '');
    expect(await screen.findByText('Enter your current password')).toBeInTheDocument();
    expect(screen.getByText('Use at least 10 characters')).toBeInTheDocument();

    await fill(CURRENT, NEW_PASSWORD, `${NEW_PASSWORD}!`);
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    expect(api.calls()).not.toContain('POST /v1/me/password');
  });

  it('refuses a weak password with the live meter and the server rule', async () => {
    const { api } = renderForm();
    await fill(CURRENT, 'password123');
    expect(await screen.findByText(AUTH_MESSAGES.weakPassword)).toBeInTheDocument();
    expect(screen.getByTestId('password-strength')).toHaveTextContent('(not met yet)');
    expect(api.calls()).not.toContain('POST /v1/me/password');
  });

  it('changes the password and says so (200)', async () => {
    const { api } = renderForm(() => json(200, { code: 200, message: 'Your password was changed.' }));
    await fill(CURRENT, NEW_PASSWORD);
    expect(await screen.findByText('Your password was changed.')).toBeInTheDocument();
    expect(api.bodyOf('/v1/me/password')).toEqual({ currentPassword: CURRENT, newPassword: NEW_PASSWORD });
    expect(screen.getByLabelText(/^Current password/)).toHaveValue('');
  });

  it('says nobody is signed in (404) and offers to sign in again', async () => {
    const { onSignedOut } = renderForm(() =>
      json(404, { code: 'auth/no-current-user', message: AUTH_MESSAGES.noCurrentUser }),
    );
    await fill(CURRENT, NEW_PASSWORD);
    await findAlert(AUTH_MESSAGES.noCurrentUser);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(onSignedOut).toHaveBeenCalled();
  });

  it('shows any other failure with its code, on the field it concerns', async () => {
    renderForm(() => json(400, { code: 'auth/wrong-password', message: AUTH_MESSAGES.wrongCurrentPassword }));
    await fill('Not-The-Current-1', NEW_PASSWORD);
    await findAlert(`${AUTH_MESSAGES.wrongCurrentPassword} (auth/wrong-password)`);
    expect(screen.getByLabelText(/^Current password/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a server error with its code', async () => {
    renderForm(() => json(500, { code: 'internal', message: 'Internal Server Error' }));
    await fill(CURRENT, NEW_PASSWORD);
    await findAlert('Internal Server Error (internal)');
    await findAlert('Your password was not changed (internal)');
  });
});
