/** The console addresses of the index pages. */
export const indexPaths = {
  list: '/index',
  add: '/index/add',
  view: (id: string) => `/index/view?id=${encodeURIComponent(id)}`,
};
