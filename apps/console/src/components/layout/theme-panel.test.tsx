import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preferLight } from '../../test/color-scheme';
import { TestProviders } from '../../test/test-providers';
import { ThemePanel } from './theme-panel';

const renderPanel = () =>
  render(
    <TestProviders>
      <ThemePanel />
    </TestProviders>,
  );
const scheme = () => document.documentElement.getAttribute('data-mantine-color-scheme');

describe('ThemePanel', () => {
  afterEach(() => vi.restoreAllMocks());

  it('starts dark, stores Light in appMode, and reads it back on the next render', async () => {
    const user = userEvent.setup();
    const first = renderPanel();
    expect(scheme()).toBe('dark');

    await user.click(screen.getByRole('button', { name: 'Theme settings' }));
    const panel = screen.getByRole('dialog', { name: 'Theme panel' });
    expect(panel).toHaveTextContent('Display Mode');
    expect(screen.getByRole('radio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');

    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(window.localStorage.getItem('appMode')).toBe('light');
    expect(scheme()).toBe('light');
    first.unmount();

    renderPanel();
    expect(scheme()).toBe('light');
    await user.click(screen.getByRole('button', { name: 'Theme settings' }));
    expect(screen.getByRole('radio', { name: 'Light' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('radio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'false');
  });

  it("follows the browser's light preference on a first visit, then remembers the choice over it", async () => {
    const user = userEvent.setup();
    preferLight();
    const first = renderPanel();
    expect(scheme()).toBe('light');
    expect(window.localStorage.getItem('appMode')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Theme settings' }));
    expect(screen.getByRole('radio', { name: 'Light' })).toHaveAttribute('aria-checked', 'true');

    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(window.localStorage.getItem('appMode')).toBe('dark');
    first.unmount();
    renderPanel();
    expect(scheme()).toBe('dark');
  });

  it('stores Dark explicitly when chosen', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem('appMode', 'light');
    renderPanel();
    await user.click(screen.getByRole('button', { name: 'Theme settings' }));
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(window.localStorage.getItem('appMode')).toBe('dark');
    expect(scheme()).toBe('dark');
  });

  it('records in appThemePanelToggled whether the panel is open', async () => {
    const user = userEvent.setup();
    renderPanel();
    await user.click(screen.getByRole('button', { name: 'Theme settings' }));
    expect(window.localStorage.getItem('appThemePanelToggled')).toBe('true');
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Theme panel' })).not.toBeInTheDocument(),
    );
    expect(window.localStorage.getItem('appThemePanelToggled')).toBe('false');
  });
});
