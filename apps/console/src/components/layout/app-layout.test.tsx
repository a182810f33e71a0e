import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../lib/session';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { LocationProbe, TestProviders } from '../../test/test-providers';
import { AppLayout } from './app-layout';

// happy-dom applies Mantine's responsive classes against its own viewport (1024 px by default).
const setViewportWidth = (width: number) =>
  (
    window as unknown as { happyDOM: { setViewport(size: { width: number; height: number }): void } }
  ).happyDOM.setViewport({ width, height: 768 });

// The layout is a layout route, as in the app, so it stays mounted across navigations.
const renderLayout = (session: Session | null = null) => {
  const router = createMemoryRouter(
    [
      {
        element: (
          <AppLayout>
            <Outlet />
          </AppLayout>
        ),
        children: [{ path: '*', element: <LocationProbe /> }],
      },
    ],
    { initialEntries: ['/extra/search'] },
  );
  return render(<RouterProvider router={router} />, {
    wrapper: ({ children }) => <TestProviders session={session}>{children}</TestProviders>,
  });
};

describe('AppLayout', () => {
  afterEach(() => setViewportWidth(1024));

  it('has the brand, the menu, the footer and no user menu without a session', () => {
    renderLayout();
    expect(screen.getByRole('link', { name: 'OMNIBOT ADMIN' })).toHaveAttribute('href', '/bot/integration');
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent(
      `© ${new Date().getFullYear()} Omnibot. All rights reserved.`,
    );
    expect(screen.queryByText('LOGOUT')).not.toBeInTheDocument();
  });

  it('collapses and expands the desktop sidebar', async () => {
    const user = userEvent.setup();
    renderLayout();
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    await user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(nav).toHaveAttribute('data-desktop-collapsed');
    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(nav).not.toHaveAttribute('data-desktop-collapsed');
    expect(screen.getByRole('button', { name: 'Collapse sidebar' })).toBeInTheDocument();
  });

  it('closes the mobile drawer when a menu entry is chosen', async () => {
    const user = userEvent.setup();
    // Below 768 px the burger shows (Mantine's hidden-from-sm class) and the collapse button hides.
    setViewportWidth(375);
    renderLayout();
    expect(screen.queryByRole('button', { name: 'Collapse sidebar' })).not.toBeInTheDocument();
    const burger = screen.getByRole('button', { name: 'Open menu' });
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    expect(nav).toHaveAttribute('data-mobile-collapsed');
    await user.click(burger);
    expect(burger).toHaveAttribute('aria-expanded', 'true');
    expect(nav).not.toHaveAttribute('data-mobile-collapsed');

    await user.click(within(nav).getByRole('link', { name: 'User Profile' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/profile');
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    expect(nav).toHaveAttribute('data-mobile-collapsed');
  });

  it('shows account and user names with a LOGOUT that signs out and goes to /login', async () => {
    const user = userEvent.setup();
    const signOut = vi.fn(() => Promise.resolve());
    renderLayout({
      tenantName: 'Acme Support',
      tenantType: '2',
      profile: { firstname: 'Grace', lastname: 'Hopper', role: 'administrator', tenant_id: 't2' },
      features: [],
      signOut,
    });
    expect(screen.getByText('Acme Support')).toBeInTheDocument();
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /User menu/ }));
    await user.click(screen.getByRole('menuitem', { name: 'LOGOUT' }));
    expect(signOut).toHaveBeenCalledOnce();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
  });
});
