import { createSpotlight } from '@mantine/spotlight';

/** The menu search's own Spotlight store, so the header button and the search box share it. */
export const [menuSearchStore, menuSearch] = createSpotlight();
