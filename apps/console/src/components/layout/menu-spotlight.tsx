import '@mantine/spotlight/styles.css';
import { Button } from '@mantine/core';
import { Spotlight } from '@mantine/spotlight';
import { searchMenu } from '@omnibot/contracts';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useVisibleMenu } from '../../lib/menu';
import { MenuIcon } from './menu-icon';
import { menuSearch, menuSearchStore } from './menu-search-store';

const hasSelectedAction = () => {
  const { listId } = menuSearchStore.getState();
  return Boolean(listId && document.getElementById(listId)?.querySelector('[data-selected]'));
};

/**
 * Menu search (mod+K): every entry the user may see in the sidebar. Enter opens the selected entry;
 * on free text with nothing selected it opens the results page (/extra/search?q=...).
 */
export function MenuSpotlight() {
  const { entries } = useVisibleMenu();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const text = query.trim();
  const results = useMemo(() => (text ? searchMenu(entries, text) : entries), [entries, text]);

  const showAllResults = () => {
    menuSearch.close();
    void navigate(paths.menuSearch.getHref(text));
  };

  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing && text && !hasSelectedAction()) {
      event.preventDefault();
      showAllResults();
    }
  };

  return (
    <Spotlight.Root
      store={menuSearchStore}
      query={query}
      onQueryChange={setQuery}
      shortcut="mod + K"
      scrollable
      maxHeight={440}
    >
      <Spotlight.Search
        placeholder="Search menu..."
        leftSection={<IconSearch size={20} stroke={1.6} aria-hidden="true" />}
        onKeyDown={onSearchKeyDown}
      />
      {results.length > 0 ? (
        <Spotlight.ActionsList>
          {results.map((entry) => (
            <Spotlight.Action
              key={entry.id}
              label={entry.label}
              description={entry.path.join(' › ')}
              leftSection={<MenuIcon name={entry.icon} size={20} />}
              highlightQuery
              onClick={() => void navigate(entry.route)}
            />
          ))}
        </Spotlight.ActionsList>
      ) : (
        <Spotlight.Empty>
          No menu entry matches “{text}”. Press Enter to search all menu entries.
        </Spotlight.Empty>
      )}
      {text && (
        <Spotlight.Footer>
          <Button variant="subtle" size="compact-sm" onClick={showAllResults}>
            Show all results for “{text}”
          </Button>
        </Spotlight.Footer>
      )}
    </Spotlight.Root>
  );
}
