import { afterEach, describe, expect, it, vi } from 'vitest';
// The real public file, run the way the browser runs it: a classic script before first paint.
import themeInitSource from '../../public/theme-init.js?raw';
import { preferLight } from '../test/color-scheme';
import { APP_MODE_KEY } from './theme';

const runThemeInit = () => {
  const script = document.createElement('script');
  script.textContent = themeInitSource;
  document.head.append(script);
  script.remove();
};
const scheme = () => document.documentElement.getAttribute('data-mantine-color-scheme');

describe('public/theme-init.js', () => {
  afterEach(() => vi.restoreAllMocks());

  it("follows the browser's light preference while nothing is stored; a stored choice wins", () => {
    preferLight();
    runThemeInit();
    expect(scheme()).toBe('light');
    window.localStorage.setItem(APP_MODE_KEY, 'dark');
    runThemeInit();
    expect(scheme()).toBe('dark');
  });

  it('applies light when appMode is light', () => {
    window.localStorage.setItem(APP_MODE_KEY, 'light');
    runThemeInit();
    expect(scheme()).toBe('light');
  });

  it('applies dark when appMode is dark, and by default', () => {
    window.localStorage.setItem(APP_MODE_KEY, 'dark');
    runThemeInit();
    expect(scheme()).toBe('dark');
    window.localStorage.clear();
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
    runThemeInit();
    expect(scheme()).toBe('dark');
  });

  it('falls back to dark for unknown values and when storage is blocked', () => {
    window.localStorage.setItem(APP_MODE_KEY, 'auto');
    runThemeInit();
    expect(scheme()).toBe('dark');
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    runThemeInit();
    expect(scheme()).toBe('dark');
  });
});
