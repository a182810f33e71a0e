import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from '../components/errors/route-error-boundary';
import { paths } from '../config/paths';
import { lazyRoute } from '../lib/preload-error';
import { stubAuthApi } from '../test/fake-auth-api';
import { TestProviders } from '../test/test-providers';
import { routes } from './router';

const renderAt = (path: string, table: RouteObject[] = routes) => {
  const router = createMemoryRouter(table, { initialEntries: [path] });
  const { unmount } = render(<RouterProvider router={router} />, { wrapper: TestProviders });
  return Object.assign(router, { unmount });
};

describe('the route table', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('loads every route lazily', () => {
    const all: RouteObject[] = [];
    const walk = (list: RouteObject[]) =>
      list.forEach((route) => {
        all.push(route);
        walk(route.children ?? []);
      });
    walk(routes);
    expect(all.length).toBeGreaterThanOrEqual(5);
    for (const route of all) expect(typeof route.lazy).toBe('function');
  });

  it('shows the sign-in page at / and /login when signed out', async () => {
    stubAuthApi();
    for (const path of ['/', '/login']) {
      const router = renderAt(path);
      expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe(path);
      // Outside the shell.
      expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
      router.unmount();
    }
  });

  it('sends a signed-out visitor of any console page to /login, keeping the page in ?next=', async () => {
    stubAuthApi();
    window.sessionStorage.setItem('tenant_name', 'Left over');
    const router = renderAt('/user?page=2');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?next=%2Fuser%3Fpage%3D2');
    expect(window.sessionStorage.getItem('tenant_name')).toBeNull();
  });

  it('leaves the other signed-out pages open', async () => {
    stubAuthApi();
    for (const [path, heading] of [
      ['/register', 'Register'],
      ['/register/success', 'Registration Successfull!!'],
      ['/bot/forgot', 'Forgot password?'],
      ['/bot/password?token=abc', 'Choose a new password'],
    ] as const) {
      const router = renderAt(path);
      expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe(path.split('?')[0]);
      router.unmount();
    }
  });

  it('moves a signed-in user from / to the integrations overview, inside the shell', async () => {
    stubAuthApi({ signedIn: true });
    const router = renderAt('/');
    // The shell and the overview are lazy chunks loaded one after the other: slower than one query's default wait.
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('Acme Support')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/bot/integration');
    expect(paths.afterSignIn).toBe(paths.brand);
    expect(await screen.findByRole('heading', { level: 1, name: 'Integrations' })).toBeInTheDocument();
  });

  it('shows the error page, inside the shell, for unknown paths', async () => {
    stubAuthApi({ signedIn: true });
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
  });

  it('offers a reload when a route chunk fails to load', async () => {
    renderAt('/', [
      {
        path: '/',
        ErrorBoundary: RouteErrorBoundary,
        HydrateFallback: () => null,
        lazy: lazyRoute(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))),
      },
    ]);
    expect(await screen.findByRole('heading', { name: 'A new version is available' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});
