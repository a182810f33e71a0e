import {
  MENU,
  ROLES,
  visibleMenu,
  flattenMenu,
  type MenuLevel,
  type MenuNodeDefinition,
} from '@omnibot/contracts';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from '../components/errors/route-error-boundary';
import { paths } from '../config/paths';
import { lazyRoute } from '../lib/preload-error';
import { stubAuthApi } from '../test/fake-auth-api';
import { COMPLETE_SETUP, setupHandler } from '../test/setup-fixture';
import { TestProviders } from '../test/test-providers';
import { routes } from './router';

const renderAt = (path: string, table: RouteObject[] = routes) => {
  const router = createMemoryRouter(table, { initialEntries: [path] });
  const { unmount } = render(<RouterProvider router={router} />, { wrapper: TestProviders });
  return Object.assign(router, { unmount });
};

/** Every path the route table registers, absolute ('/bot/manage'), parameters as written. */
function registeredPaths(table: RouteObject[], parent = ''): string[] {
  return table.flatMap((route) => {
    const own = route.path === undefined ? parent : `${parent}/${route.path}`.replace(/\/+/g, '/');
    return [...(route.path === undefined ? [] : [own]), ...registeredPaths(route.children ?? [], own)];
  });
}

function declaredLinks(nodes: readonly MenuNodeDefinition[] = MENU.flatMap((s) => s.items)) {
  return nodes.flatMap((node): { route: string; planned: boolean }[] =>
    node.kind === 'link'
      ? [{ route: node.route, planned: node.planned === true }]
      : declaredLinks(node.children),
  );
}

describe('the menu against the route table', () => {
  const registered = new Set(registeredPaths(routes));

  it('registers a screen for every entry any principal can see', () => {
    const levels: MenuLevel[] = ['1', '2', '3'];
    const features = ['omnirag', 'omniassist', 'casesummary', 'subtenant'];
    for (const level of levels) {
      for (const role of ROLES) {
        for (const entry of flattenMenu(visibleMenu({ level, role, features, liveAgents: true }))) {
          expect(registered, `${entry.path.join(' > ')} > ${entry.label}`).toContain(entry.route);
        }
      }
    }
  });

  it('marks planned exactly the entries without a screen, so a new screen brings its entry back', () => {
    for (const { route, planned } of declaredLinks()) {
      expect(registered.has(route), `${route} is ${planned ? 'planned' : 'a link'}`).toBe(!planned);
    }
  });
});

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

  it('lands a signed-in user of a new organisation on the getting-started page, inside the shell', async () => {
    stubAuthApi({ signedIn: true, handle: setupHandler({}) });
    const router = renderAt('/');
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Getting started' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(paths.gettingStarted);
    expect(await screen.findByText('0 of 6 steps done')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open knowledge bases' })).toHaveAttribute('href', '/knowledge');
    expect(screen.getByRole('link', { name: 'Getting Started' })).toHaveAttribute(
      'href',
      paths.gettingStarted,
    );
  });

  it('lands on the integrations overview once every step is done; the page stays in the menu', async () => {
    stubAuthApi({ signedIn: true, handle: setupHandler(COMPLETE_SETUP) });
    const router = renderAt('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Integrations' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(paths.integrations);
    expect(paths.brand).toBe(paths.integrations);
    expect(screen.getByRole('link', { name: 'Getting Started' })).toHaveAttribute(
      'href',
      paths.gettingStarted,
    );
  });

  it('lands an agent, who builds nothing, on the integrations overview and offers it no Getting Started', async () => {
    const api = stubAuthApi({ signedIn: true, role: 'agent', handle: setupHandler({}) });
    const router = renderAt('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Integrations' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(paths.integrations);
    expect(screen.queryByRole('link', { name: 'Getting Started' })).not.toBeInTheDocument();
    expect(api.calls()).not.toContain('GET /v1/bots');
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
