import { AUTH_MESSAGES } from '@omnibot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FAKE_PASSWORD, json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { GuestOnly } from './guest-only';
import { SessionProvider } from './session-provider';
import { SignInForm } from './sign-in-form';
import { defined } from '../../../test/defined';

const renderSignIn = (path = '/login', props: Parameters<typeof SignInForm>[0] = {}) =>
  renderRoute(
    <SessionProvider>
      <GuestOnly>
        <SignInForm {...props} />
      </GuestOnly>
    </SessionProvider>,
    { path },
  );

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  await fill(user, await screen.findByLabelText(/E-mail/), email);
  if (password) await fill(user, screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('SignInForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows what is wrong before anything is sent', async () => {
    const api = stubAuthApi();
    renderSignIn();
    const user = await fillAndSubmit('not-an-address', '');
    expect(await screen.findByText(AUTH_MESSAGES.invalidEmail)).toBeInTheDocument();
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/E-mail/));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your e-mail address')).toBeInTheDocument();
    expect(api.calls()).toEqual(['GET /v1/session']);
  });

  it("shows the server's message for wrong credentials", async () => {
    stubAuthApi();
    renderSignIn();
    await fillAndSubmit('grace@acme.test', 'wrong-password-1');
    expect(await screen.findByRole('alert')).toHaveTextContent(AUTH_MESSAGES.wrongCredentials);
  });

  it('signs in, runs the start-up flow, and goes on to ?next=', async () => {
    const api = stubAuthApi();
    renderSignIn('/login?next=%2Fuser');
    await fillAndSubmit('grace@acme.test', FAKE_PASSWORD);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/user$/));
    expect(api.calls()).toEqual([
      'GET /v1/session',
      'POST /api/auth/sign-in/email',
      'GET /v1/session',
      'GET /v1/Account/t-acme/User/grace%40acme.test',
      'GET /v1/Account/t-acme',
      'GET /v1/Account/t-acme/credential',
      'GET /v1/Account/t-acme/Subscription',
    ]);
    const profileCall = defined(api.fetchMock.mock.calls[3]);
    expect(profileCall[1]?.headers).toMatchObject({ 'x-app-id': 'omnibot-console' });
    expect(window.sessionStorage.getItem('tenant_name')).toBe('Acme Support');
  });

  it('stays on the sign-in page with the message when the start-up flow fails, and signs out', async () => {
    const api = stubAuthApi({ hasCredential: false });
    renderSignIn('/login?next=%2Fuser');
    await fillAndSubmit('grace@acme.test', FAKE_PASSWORD);
    expect(await screen.findByText(/^Your account's credential could not be loaded\./)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login?next=%2Fuser');
    expect(api.calls()).toContain('POST /api/auth/sign-out');
    expect(window.sessionStorage.length).toBe(0);
  });

  it('offers to send the verification mail again when the address is not verified', async () => {
    const api = stubAuthApi({
      handle: (method, path) => {
        if (path === '/api/auth/sign-in/email')
          return json(403, { code: 'auth/email-not-verified', message: AUTH_MESSAGES.emailNotVerified });
        if (path === '/api/auth/send-verification-email') return json(200, { status: true });
        return undefined;
      },
    });
    renderSignIn();
    const user = await fillAndSubmit('grace@acme.test', FAKE_PASSWORD);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(AUTH_MESSAGES.emailNotVerified);
    await user.click(within(alert).getByRole('button', { name: 'Send verification email again' }));
    expect(await screen.findByText(/We sent a new verification link to grace@acme.test/)).toBeInTheDocument();
    expect(api.bodyOf('/api/auth/send-verification-email')).toEqual({
      email: 'grace@acme.test',
      callbackURL: '/login?verified=1',
    });
  });

  it('says when to try again after too many attempts', async () => {
    stubAuthApi({
      handle: (_method, path) =>
        path === '/api/auth/sign-in/email'
          ? json(
              429,
              { code: 'auth/too-many-requests', message: AUTH_MESSAGES.tooManyRequests },
              { 'retry-after': '600' },
            )
          : undefined,
    });
    renderSignIn();
    await fillAndSubmit('grace@acme.test', FAKE_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /Too many attempts\. Please wait and try again later\. Try again in 10 minutes \(at \d\d:\d\d\)\./,
    );
  });

  it('greets a verified address, and explains a refused verification link with a way to get a new one', async () => {
    stubAuthApi();
    const first = renderSignIn('/login?verified=1', { verified: true });
    expect(await screen.findByText('Email verified, you can sign in now')).toBeInTheDocument();
    first.unmount();

    renderSignIn('/login?verified=1&error=TOKEN_EXPIRED', {
      verified: true,
      verificationError: 'TOKEN_EXPIRED',
    });
    expect(await screen.findByText('This verification link did not work')).toBeInTheDocument();
    expect(screen.getByText(/^It has expired\./)).toBeInTheDocument();
    expect(screen.queryByText('Email verified, you can sign in now')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send verification email again' }));
    expect(
      await screen.findByText('Enter your e-mail address to get a new verification link'),
    ).toBeInTheDocument();
  });

  it('links to the forgotten-password and registration pages', async () => {
    stubAuthApi();
    renderSignIn();
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/bot/forgot',
    );
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  });
});
