/** The console addresses of the bot template pages. */
export const templatePaths = {
  create: '/bot/template/create',
  manage: '/bot/template/manage',
};
