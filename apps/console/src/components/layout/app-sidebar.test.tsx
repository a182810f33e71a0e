import { AppShell } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../lib/session';
import { renderRoute } from '../../test/render';
import { AppSidebar } from './app-sidebar';

const masterSession: Session = {
  tenantName: 'Platform',
  tenantType: '1',
  profile: { firstname: 'Ada', lastname: 'Lovelace', role: 'master', tenant_id: 't1' },
  features: ['omnirag', 'omniassist', 'casesummary', 'subtenant'],
  signOut: () => Promise.resolve(),
};

const agentSession: Session = {
  tenantName: 'Acme Support',
  tenantType: '3',
  profile: { firstname: 'Grace', lastname: 'Hopper', role: 'agent', tenant_id: 't3' },
  features: [],
  signOut: () => Promise.resolve(),
};

const renderSidebar = (session: Session | null, path = '/extra/search', liveAgents?: boolean) =>
  renderRoute(
    <AppShell navbar={{ width: 260, breakpoint: 'sm' }}>
      <AppSidebar mobileCollapsed desktopCollapsed={false} />
    </AppShell>,
    { path, session, liveAgents },
  );

const sectionNames = () =>
  within(screen.getByRole('navigation', { name: 'Main menu' }))
    .getAllByRole('group')
    .map((group) => group.getAttribute('aria-label'));

describe('AppSidebar', () => {
  it('shows the least-privileged menu without a session', async () => {
    const user = userEvent.setup();
    renderSidebar(null);
    expect(sectionNames()).toEqual(['APPS', 'SETTINGS']);
    expect(screen.getByRole('link', { name: 'User Profile' })).toHaveAttribute('href', '/profile');

    await user.click(screen.getByRole('button', { name: 'Account' }));
    expect(screen.getByRole('link', { name: 'Service Address' })).toHaveAttribute('href', '/account');
    expect(screen.queryByRole('link', { name: 'Client Org.' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Subscription' })).not.toBeInTheDocument();
    expect(screen.getByText('PRODUCTION')).toBeInTheDocument();
  });

  it('shows what visibleMenu allows the platform master with every feature', async () => {
    const user = userEvent.setup();
    renderSidebar(masterSession);
    // Omni Assist and SUPPORT hold only planned entries (no screen yet), so they stay hidden.
    expect(sectionNames()).toEqual(['APPS', 'SETTINGS', 'Omni RAG', 'Case Summarization']);
    expect(screen.getByRole('link', { name: 'Models' })).toHaveAttribute('href', '/model');
    expect(screen.queryByRole('link', { name: 'Guides' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Account' }));
    expect(screen.getByRole('link', { name: 'Client Org.' })).toHaveAttribute('href', '/tenant');
    expect(screen.getByRole('link', { name: 'Subscription' })).toHaveAttribute('href', '/subscription');
  });

  it('offers the Inbox, to agents too, once the organisation has live agents', () => {
    const { unmount } = renderSidebar(agentSession, '/inbox', true);
    const inbox = screen.getByRole('link', { name: 'Inbox' });
    expect(inbox).toHaveAttribute('href', '/inbox');
    expect(inbox).toHaveAttribute('aria-current', 'page');
    unmount();
    renderSidebar(masterSession, '/extra/search', true);
    expect(screen.getByRole('link', { name: 'Inbox' })).toHaveAttribute('href', '/inbox');
  });

  it('hides the Inbox while no bot hands over to it, or while that is not known', () => {
    const { unmount } = renderSidebar(agentSession, '/extra/search', false);
    expect(screen.getByRole('link', { name: 'User Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Inbox' })).not.toBeInTheDocument();
    unmount();
    renderSidebar(masterSession);
    expect(screen.queryByRole('link', { name: 'Inbox' })).not.toBeInTheDocument();
  });

  it('opens groups on click and opens the group holding the current page by itself', async () => {
    const user = userEvent.setup();
    renderSidebar(masterSession, '/prompt/compose');
    const prompts = screen.getByRole('button', { name: 'Prompts' });
    expect(prompts).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Create' })).toHaveAttribute('aria-current', 'page');

    const bots = screen.getByRole('button', { name: 'Bots' });
    expect(bots).toHaveAttribute('aria-expanded', 'false');
    await user.click(bots);
    expect(bots).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Language RAG' })).toHaveAttribute('href', '/bot/config/rag');
  });
});
