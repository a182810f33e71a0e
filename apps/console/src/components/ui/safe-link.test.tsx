import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SafeLink } from './safe-link';

const show = (href: string | null) =>
  render(
    <MantineProvider>
      <SafeLink href={href}>Guide</SafeLink>
    </MantineProvider>,
  );

describe('SafeLink', () => {
  it('links http(s) pages and signed downloads of this server, in a new tab without the opener', () => {
    for (const [href, expected] of [
      ['https://docs.example.com/guide', 'https://docs.example.com/guide'],
      [
        '/v1/files/download?tenant=t&path=a.pdf&expires=1&signature=s',
        `${window.location.origin}/v1/files/download?tenant=t&path=a.pdf&expires=1&signature=s`,
      ],
    ] as const) {
      const { unmount } = show(href);
      const link = screen.getByRole('link', { name: 'Guide (opens in a new tab)' });
      expect(link).toHaveAttribute('href', expected);
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      unmount();
    }
  });

  it('shows any other address as plain text: a script, data, a storage path, another path', () => {
    for (const href of [
      "javascript:window.__xss=1;void'.pdf'",
      'data:text/html,<b>x</b>',
      'manuals/guide.pdf',
      '/v1/session',
      null,
    ]) {
      const { container, unmount } = show(href);
      expect(screen.getByText('Guide')).toBeInTheDocument();
      expect(screen.queryByRole('link')).toBeNull();
      expect(container.querySelector('[href]')).toBeNull();
      unmount();
    }
  });
});
