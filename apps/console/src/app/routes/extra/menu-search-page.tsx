import { Button, Container, Group, Stack, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { MenuSearchResults } from '../../../features/menu-search/components/menu-search-results';
import { useVisibleMenu } from '../../../lib/menu';

/** /extra/search?q=...: the header menu search's results page. */
export function Component() {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = searchParams.get('q') ?? '';
  const { entries } = useVisibleMenu();
  const [draft, setDraft] = useState(query);
  const [shownQuery, setShownQuery] = useState(query);

  // Keep the box in step when ?q= changes from outside (the header search, back and forward).
  if (query !== shownQuery) {
    setShownQuery(query);
    setDraft(query);
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = draft.trim();
    setSearchParams(text ? { q: text } : {});
  };

  return (
    <Container size="md" w="100%" px={0}>
      <Stack gap="lg">
        <Title order={1} size="h2">
          Menu search
        </Title>
        <form onSubmit={onSubmit} role="search">
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <TextInput
              label="Search the menu"
              placeholder="For example: Users"
              value={draft}
              onChange={(event) => setDraft(event.currentTarget.value)}
              leftSection={<IconSearch size={16} stroke={1.6} />}
              style={{ flex: 1 }}
            />
            <Button type="submit">Search</Button>
          </Group>
        </form>
        <MenuSearchResults query={query} entries={entries} />
      </Stack>
    </Container>
  );
}
