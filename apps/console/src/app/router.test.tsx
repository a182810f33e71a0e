import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RouteErrorBoundary } from '../components/errors/route-error-boundary';
import { lazyRoute } from '../lib/preload-error';
import { TestProviders } from '../test/test-providers';
import { routes } from './router';

const renderAt = (path: string, table: RouteObject[] = routes) => {
  const router = createMemoryRouter(table, { initialEntries: [path] });
  render(<RouterProvider router={router} />, { wrapper: TestProviders });
  return router;
};

describe('the route table', () => {
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

  it('sends / to the menu search for now', async () => {
    const router = renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Menu search' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/extra/search');
  });

  it('shows the error page, inside the shell, for unknown paths', async () => {
    renderAt('/user');
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
