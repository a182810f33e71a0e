import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../../test/render';
import { Component as MenuSearchPage } from './menu-search-page';

describe('/extra/search', () => {
  it('lists the visible menu entries matching ?q=, linking to them', () => {
    renderRoute(<MenuSearchPage />, { path: '/extra/search?q=users' });
    expect(screen.getByText(/1 menu entry matches/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Users/ })).toHaveAttribute('href', '/user');
  });

  it('explains what to type when there is no query', () => {
    renderRoute(<MenuSearchPage />, { path: '/extra/search' });
    expect(screen.getByRole('heading', { name: 'Search the menu' })).toBeInTheDocument();
  });

  it('says so, with something to try, when nothing matches', () => {
    renderRoute(<MenuSearchPage />, { path: '/extra/search?q=zebra' });
    expect(screen.getByRole('heading', { name: 'Nothing in the menu matches “zebra”' })).toBeInTheDocument();
    expect(screen.getByText(/try a shorter word/)).toBeInTheDocument();
  });

  it('searches again from its own box', async () => {
    const user = userEvent.setup();
    renderRoute(<MenuSearchPage />, { path: '/extra/search?q=zebra' });
    const box = screen.getByRole('textbox', { name: 'Search the menu' });
    await user.clear(box);
    await user.type(box, 'install{Enter}');
    expect(screen.getByRole('link', { name: /Install/ })).toHaveAttribute('href', '/bot/install');
  });
});
