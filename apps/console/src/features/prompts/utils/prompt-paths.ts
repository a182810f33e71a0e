/** The console addresses of the prompt pages. */
export const promptPaths = {
  list: '/prompt',
  compose: '/prompt/compose',
  detail: (id: string) => `/prompt/detail/${encodeURIComponent(id)}`,
};
