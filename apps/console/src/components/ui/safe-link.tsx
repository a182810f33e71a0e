import { Anchor, type AnchorProps, Text } from '@mantine/core';
import { safeSourceHref } from '@omnibot/contracts';
import { IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface SafeLinkProps extends AnchorProps {
  /** Where the link goes, as the server gave it: used only when it is an http(s) page or a signed download. */
  href: string | null | undefined;
  children: ReactNode;
}

/**
 * The link of a source (of an answer, a hit, a transcript), opened in a new tab: only an http(s) address or a
 * signed download path of this server gets an href; anything else (`javascript:`, a storage path) is plain text.
 */
export function SafeLink({ href, children, ...props }: SafeLinkProps) {
  const safe = safeSourceHref(href, window.location.origin);
  if (!safe) {
    return (
      <Text component="span" {...props}>
        {children}
      </Text>
    );
  }
  return (
    <Anchor href={safe} target="_blank" rel="noopener noreferrer" {...props}>
      {children} <IconExternalLink size={12} aria-label="(opens in a new tab)" />
    </Anchor>
  );
}
