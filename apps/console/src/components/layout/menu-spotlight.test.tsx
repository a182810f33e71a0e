import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../test/render';
import { MenuSearchButton } from './menu-search-button';
import { MenuSpotlight } from './menu-spotlight';

const renderSearch = () =>
  renderRoute(
    <>
      <MenuSearchButton />
      <MenuSpotlight />
    </>,
    { path: '/extra/search' },
  );

const location = () => screen.getByTestId('location').textContent;

describe('menu search', () => {
  it('finds Users and opens it with Enter', async () => {
    const user = userEvent.setup();
    renderSearch();
    await user.click(screen.getByRole('button', { name: /^Search menu/ }));
    await user.type(screen.getByPlaceholderText('Search menu...'), 'Users');
    expect(screen.getByRole('button', { name: /^Users/ })).toHaveTextContent('SETTINGS › User');
    await user.keyboard('{Enter}');
    expect(location()).toBe('/user');
  });

  it('opens an entry on click', async () => {
    const user = userEvent.setup();
    renderSearch();
    await user.click(screen.getByRole('button', { name: /^Search menu/ }));
    await user.type(screen.getByPlaceholderText('Search menu...'), 'welcome');
    await user.click(screen.getByRole('button', { name: /^Welcome Message/ }));
    expect(location()).toBe('/bot/config/message');
  });

  it('sends free text with nothing selected to the results page', async () => {
    const user = userEvent.setup();
    renderSearch();
    await user.click(screen.getByRole('button', { name: /^Search menu/ }));
    await user.type(screen.getByPlaceholderText('Search menu...'), 'no such thing');
    expect(screen.getByText(/No menu entry matches/)).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(location()).toBe('/extra/search?q=no+such+thing');
  });

  it('only offers entries the menu shows: no Subscription without a session', async () => {
    const user = userEvent.setup();
    renderSearch();
    await user.click(screen.getByRole('button', { name: /^Search menu/ }));
    await user.type(screen.getByPlaceholderText('Search menu...'), 'Subscription');
    expect(screen.queryByRole('button', { name: /^Subscription/ })).not.toBeInTheDocument();
  });
});
