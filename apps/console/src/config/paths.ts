/** Routes the console links to. Menu routes live in @omnibot/contracts (MENU). */
export const paths = {
  home: '/',
  login: '/login',
  /** The header brand link (spec section 2). */
  brand: '/bot/integration',
  menuSearch: {
    path: '/extra/search',
    getHref: (query: string) => `/extra/search?${new URLSearchParams({ q: query }).toString()}`,
  },
} as const;
