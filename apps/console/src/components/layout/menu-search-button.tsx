import { Box, Kbd, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import classes from './app-layout.module.css';
import { menuSearch } from './menu-search-store';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function MenuSearchButton() {
  return (
    <UnstyledButton className={classes.searchButton} onClick={menuSearch.open} aria-label="Search menu">
      <IconSearch size={18} stroke={1.6} aria-hidden="true" />
      <Box component="span" visibleFrom="sm" style={{ flex: 1 }}>
        Search menu...
      </Box>
      <Kbd size="xs" visibleFrom="sm">
        {isMac ? '⌘' : 'Ctrl'} K
      </Kbd>
    </UnstyledButton>
  );
}
