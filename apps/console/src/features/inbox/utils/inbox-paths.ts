/** The console addresses the inbox links to. */
export const inboxPaths = {
  /** The inbox with one conversation open. */
  conversation: (id: string) => `/inbox?${new URLSearchParams({ id }).toString()}`,
  /** The bots list, where a bot's Engines section turns live agents on. */
  bots: '/bot/manage',
};
