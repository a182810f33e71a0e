/** Links of the user screens; `tenantId` only when it is not the caller's own organisation. */
const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
};

export const userPaths = {
  list: (tenantId?: string) => withQuery('/user', { tenant_id: tenantId }),
  add: (tenantId?: string) => withQuery('/user/add', { tenant_id: tenantId }),
  view: (userId: string, tenantId?: string) =>
    withQuery('/user/view', { user_id: userId, tenant_id: tenantId }),
};
