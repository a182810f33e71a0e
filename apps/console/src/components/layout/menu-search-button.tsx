import { Box, Kbd, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import classes from './app-layout.module.css';
import { menuSearch } from './menu-search-store';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

const SHORTCUT = `${isMac ? '⌘' : 'Ctrl'} K`;

export function MenuSearchButton() {
  return (
    // Named by the text it shows (a hidden copy on narrow screens, where only the icon shows), so a voice-control
    // user can say what they see.
    <UnstyledButton
      className={classes.searchButton}
      onClick={menuSearch.open}
      aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'}
    >
      <IconSearch size={18} stroke={1.6} aria-hidden="true" />
      <Box component="span" visibleFrom="sm" style={{ flex: 1 }}>
        Search menu...
      </Box>
      <VisuallyHidden hiddenFrom="sm">Search menu</VisuallyHidden>
      <Kbd size="xs" visibleFrom="sm">
        {SHORTCUT}
      </Kbd>
    </UnstyledButton>
  );
}
