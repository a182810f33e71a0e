/** Routes the console links to. Menu routes live in @omnibot/contracts (MENU). */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  registerSuccess: '/register/success',
  forgotPassword: '/bot/forgot',
  resetPassword: '/bot/password',
  /**
   * Where sign-in lands when no `?next=` says otherwise: it goes on to the getting-started page while steps are left,
   * to the integrations overview once they are done.
   */
  afterSignIn: '/start',
  gettingStarted: '/getting-started',
  /** The integrations overview. */
  integrations: '/bot/integration',
  /** The header brand link. */
  brand: '/bot/integration',
  tenant: {
    list: '/tenant',
    add: '/tenant/add',
    /** Create a child of `parentId` (a master or an ancestor's administrator acting for it). */
    addUnder: (parentId: string) => `/tenant/add?${new URLSearchParams({ parent_id: parentId }).toString()}`,
    view: (tenantId: string) => `/tenant/view?${new URLSearchParams({ tenant_id: tenantId }).toString()}`,
  },
  subscription: {
    list: '/subscription',
    add: (tenantId?: string) =>
      tenantId
        ? `/subscription/add?${new URLSearchParams({ tenant_id: tenantId }).toString()}`
        : '/subscription/add',
    assign: (tenantId?: string) =>
      tenantId
        ? `/subscription/assign?${new URLSearchParams({ tenant_id: tenantId }).toString()}`
        : '/subscription/assign',
    matrix: '/subscription/assign/detail',
    view: (tenantId: string, id: string) =>
      `/subscription/view?${new URLSearchParams({ tenant_id: tenantId, id }).toString()}`,
  },
  menuSearch: {
    path: '/extra/search',
    getHref: (query: string) => `/extra/search?${new URLSearchParams({ q: query }).toString()}`,
  },
} as const;

/** Pages a signed-out visitor may open; every other path sends them to /login. */
export const PUBLIC_PATHS: readonly string[] = [
  paths.home,
  paths.login,
  paths.register,
  paths.registerSuccess,
  paths.forgotPassword,
  paths.resetPassword,
];
