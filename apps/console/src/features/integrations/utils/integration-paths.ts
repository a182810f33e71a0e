/** The console addresses of the integration pages. */
export const integrationPaths = {
  overview: '/bot/integration',
  list: '/bot/integration/list',
  add: '/bot/integration/add',
  chatbot: '/bot/integration/chatbot',
  view: (id: string) => `/bot/integration/view?id=${encodeURIComponent(id)}`,
  /** Where a builtin integration's RAG is created first. */
  rags: '/rag/add',
};
