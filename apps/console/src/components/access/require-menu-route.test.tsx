import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../lib/session';
import { renderRoute } from '../../test/render';
import { RequireMenuRoute } from './require-menu-route';

const session = (tenantType: string, role: string, features: string[] = []): Session => ({
  tenantName: 'Acme',
  tenantType,
  profile: { role, tenant_id: 't1' },
  features,
  signOut: () => Promise.resolve(),
});

const renderGuarded = (route: string, value: Session | null) =>
  renderRoute(
    <RequireMenuRoute route={route}>
      <p>Secret page</p>
    </RequireMenuRoute>,
    { session: value },
  );

describe('RequireMenuRoute', () => {
  it.each([
    ['/tenant', session('1', 'user')],
    ['/tenant', session('2', 'administrator', ['subtenant'])],
    ['/subscription', session('3', 'administrator')],
    ['/rag', session('3', 'user', ['omnirag'])],
  ])('shows %s when the menu offers it', (route, value) => {
    renderGuarded(route, value);
    expect(screen.getByText('Secret page')).toBeInTheDocument();
  });

  it.each([
    ['/tenant', session('2', 'administrator')],
    ['/tenant', session('2', 'user', ['subtenant'])],
    ['/tenant', session('3', 'administrator', ['subtenant'])],
    ['/subscription', session('1', 'user')],
    ['/rag', session('2', 'master')],
    ['/tenant', null],
  ])('refuses %s when the menu hides it', (route, value) => {
    renderGuarded(route, value);
    expect(screen.queryByText('Secret page')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'You do not have access to this page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });
});
