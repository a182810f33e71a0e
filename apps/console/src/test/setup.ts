import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Lazy routes load their module on first visit, which takes seconds on a two-core machine busy with other work; the
// default 1 s wait of findBy/waitFor turned that into failures that say nothing about the screens. A long wait
// costs only a failing test its time.
configure({ asyncUtilTimeout: 20_000 });

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
