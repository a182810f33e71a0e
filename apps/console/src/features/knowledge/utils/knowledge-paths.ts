/** The console addresses of the knowledge base pages. */
export const knowledgePaths = {
  list: '/knowledge',
  add: '/knowledge/add',
  view: (id: string) => `/knowledge/view?id=${encodeURIComponent(id)}`,
  bulk: (id: string) => `/knowledge/bulk?id=${encodeURIComponent(id)}`,
};
