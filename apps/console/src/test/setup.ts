import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Lazy routes load their module on first visit, which takes well over a second on a loaded two-core machine; the
// default 1 s wait of findBy/waitFor turned that into failures that say nothing about the screens.
configure({ asyncUtilTimeout: 5000 });

// Mantine reads these browser APIs, which happy-dom does not fully provide.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;

Element.prototype.scrollIntoView = () => {};
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  // Toasts live in a module-level store that outlives a test's render (and a file, as workers reuse modules).
  notifications.clean();
  window.localStorage.clear();
  document.documentElement.removeAttribute('data-mantine-color-scheme');
});
