import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { Session } from '../lib/session';
import { LocationProbe, TestProviders } from './test-providers';

interface RenderRouteOptions {
  path?: string;
  session?: Session | null;
  /** Whether the organisation has live agents, as the shell's inbox summary would say. */
  liveAgents?: boolean;
  /** Extra routes beside the element under test; every other path renders a LocationProbe. */
  routes?: RouteObject[];
}

/** Renders `element` at `path` in a memory router; any navigation away lands on a LocationProbe. */
export function renderRoute(
  element: ReactNode,
  { path = '/', session = null, liveAgents, routes = [] }: RenderRouteOptions = {},
) {
  const url = new URL(path, 'http://localhost');
  const router = createMemoryRouter(
    [
      {
        path: url.pathname,
        element: (
          <>
            {element}
            <LocationProbe />
          </>
        ),
      },
      ...routes,
      { path: '*', element: <LocationProbe /> },
    ],
    { initialEntries: [path] },
  );
  return {
    router,
    ...render(<RouterProvider router={router} />, {
      wrapper: (props) => <TestProviders session={session} liveAgents={liveAgents} {...props} />,
    }),
  };
}
