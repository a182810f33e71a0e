/** The console addresses of the case-summary configuration pages. */
export const caseSummaryPaths = {
  list: '/cs/config',
  add: '/cs/config/add',
  view: (id: string) => `/cs/config/view?id=${encodeURIComponent(id)}`,
  /** Where bots are created, for an organisation without one. */
  bots: '/bot/customize',
};
