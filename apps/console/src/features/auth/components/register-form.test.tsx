import { AUTH_MESSAGES } from '@omnibot/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { loadPasswordChecker } from '../../../components/password-strength/password-strength';
import { RegisterForm } from './register-form';

const STRONG = 'Velvet-Canyon-Harbor-42';

async function fillForm(values: { email?: string; password?: string; name?: string }) {
  const user = userEvent.setup();
  if (values.email) await fill(user, screen.getByLabelText(/E-mail/), values.email);
  if (values.password) await fill(user, screen.getByLabelText(/^Password/), values.password);
  if (values.name) await fill(user, screen.getByLabelText(/^Name/), values.name);
  return user;
}

describe('RegisterForm', () => {
  // The zxcvbn dictionaries take a while to parse the first time: not part of any one test.
  beforeAll(async () => {
    await loadPasswordChecker();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the live strength of the password against the rule', async () => {
    stubAuthApi();
    renderRoute(<RegisterForm />, { path: '/register' });
    await fillForm({ password: 'password1' });
    const meter = screen.getByTestId('password-strength');
    expect(meter).toHaveTextContent(/Strength: (Very weak|Weak)/);
    expect(meter).toHaveTextContent('At least 10 characters (not met yet)');
    expect(meter).toHaveTextContent('Strength Good or better (hard to guess) (not met yet)');

    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^Password/));
    await fill(user, screen.getByLabelText(/^Password/), STRONG);
    await waitFor(() => expect(meter).toHaveTextContent(/Strength: (Good|Strong)/));
    expect(meter).toHaveTextContent('At least 10 characters (met)');
    expect(meter).toHaveTextContent('Strength Good or better (hard to guess) (met)');
  });

  it('refuses a weak password and missing fields before anything is sent', async () => {
    const api = stubAuthApi();
    renderRoute(<RegisterForm />, { path: '/register' });
    const user = await fillForm({ email: 'new@acme.test', password: 'password1234' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText(AUTH_MESSAGES.weakPassword)).toBeInTheDocument();
    expect(screen.getByText('Enter your name')).toBeInTheDocument();
    expect(api.calls()).toEqual([]);
  });

  it('registers and moves on to the success page with the address', async () => {
    const api = stubAuthApi({
      handle: (method, path) =>
        method === 'POST' && path === '/api/auth/sign-up/email'
          ? json(200, { status: true, message: AUTH_MESSAGES.registrationSuccess })
          : undefined,
    });
    const { router } = renderRoute(<RegisterForm />, { path: '/register' });
    const user = await fillForm({ email: 'new@acme.test', password: STRONG, name: 'Nora New' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/register/success'));
    expect(router.state.location.state).toEqual({ email: 'new@acme.test' });
    expect(api.bodyOf('/api/auth/sign-up/email')).toEqual({
      email: 'new@acme.test',
      password: STRONG,
      name: 'Nora New',
      callbackURL: '/login?verified=1',
    });
  });

  it("puts the server's answer on the field it is about", async () => {
    stubAuthApi({
      handle: (_method, path) =>
        path === '/api/auth/sign-up/email'
          ? json(422, { code: 'auth/email-already-in-use', message: AUTH_MESSAGES.emailInUse })
          : undefined,
    });
    renderRoute(<RegisterForm />, { path: '/register' });
    const user = await fillForm({ email: 'taken@acme.test', password: STRONG, name: 'Tim Taken' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText(AUTH_MESSAGES.emailInUse)).toBeInTheDocument();
    expect(screen.getByLabelText(/E-mail/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows other failures above the form', async () => {
    stubAuthApi({
      handle: (_method, path) =>
        path === '/api/auth/sign-up/email'
          ? json(500, { code: 'auth/internal-error', message: 'Internal Server Error' })
          : undefined,
    });
    renderRoute(<RegisterForm />, { path: '/register' });
    const user = await fillForm({ email: 'new@acme.test', password: STRONG, name: 'Nora New' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal Server Error');
  });
});
