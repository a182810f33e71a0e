import type { ReactNode } from 'react';

/** A 20-pixel line icon drawn in the text colour, hidden from assistive technology (its button has the label). */
export function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}
