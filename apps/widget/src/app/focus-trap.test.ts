import { afterEach, describe, expect, it } from 'vitest';
import { focusTrapTarget } from './focus-trap';

afterEach(() => document.body.replaceChildren());

/** A window of three focusable controls between elements that cannot take the focus, beside a page button. */
function page() {
  document.body.innerHTML = `
    <button id="outside">Page</button>
    <div id="root">
      <p>Text</p>
      <button id="first">Close</button>
      <button disabled>Off</button>
      <input id="middle" />
      <span tabindex="-1">Skipped</span>
      <a id="last" href="#x">Link</a>
      <a>No href</a>
    </div>`;
  const get = (id: string) => document.getElementById(id) as HTMLElement;
  return {
    root: get('root'),
    outside: get('outside'),
    first: get('first'),
    middle: get('middle'),
    last: get('last'),
  };
}

describe('focusTrapTarget', () => {
  it('wraps Tab from the last focusable element to the first', () => {
    const { root, first, last } = page();
    expect(focusTrapTarget(root, last, false)).toBe(first);
  });

  it('wraps Shift+Tab from the first focusable element to the last', () => {
    const { root, first, last } = page();
    expect(focusTrapTarget(root, first, true)).toBe(last);
  });

  it("leaves the browser's own move alone inside the window", () => {
    const { root, first, middle, last } = page();
    expect(focusTrapTarget(root, first, false)).toBeNull();
    expect(focusTrapTarget(root, middle, false)).toBeNull();
    expect(focusTrapTarget(root, middle, true)).toBeNull();
    expect(focusTrapTarget(root, last, true)).toBeNull();
  });

  it('brings the focus in from outside the window: Tab to the first, Shift+Tab to the last', () => {
    const { root, outside, first, last } = page();
    expect(focusTrapTarget(root, outside, false)).toBe(first);
    expect(focusTrapTarget(root, outside, true)).toBe(last);
    expect(focusTrapTarget(root, null, false)).toBe(first);
  });

  it('does nothing when nothing in the window can take the focus', () => {
    document.body.innerHTML = '<div id="root"><p>Text</p><button disabled>Off</button></div>';
    const root = document.getElementById('root') as HTMLElement;
    expect(focusTrapTarget(root, document.body, false)).toBeNull();
    expect(focusTrapTarget(root, document.body, true)).toBeNull();
  });
});
