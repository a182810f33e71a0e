/** The console addresses the dashboard links to. */
export const dashboardPaths = {
  dashboard: '/bot/dashboard',
  /** Where bots are created and managed. */
  manage: '/bot/manage',
  /** Where the widget snippet is copied to put a bot on a website. */
  install: '/bot/install',
  /** Where a bot can be tried in a full-page messenger. */
  promptTest: '/bot/prompt/test',
};
