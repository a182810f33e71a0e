/** The console addresses of the integration pages. */
export const integrationPaths = {
  overview: '/bot/integration',
  list: '/bot/integration/list',
  add: '/bot/integration/add',
  chatbot: '/bot/integration/chatbot',
  /** The contact-centre integrations (menu: Integration > Contact Center). */
  ccaas: '/bot/integration/ccaas',
  /** The add page with the contact-centre form, starting on `engine`. */
  addContactCentre: (engine?: 'genesys' | 'connect') =>
    `/bot/integration/add?kind=ccaas${engine ? `&engine=${engine}` : ''}`,
  view: (id: string) => `/bot/integration/view?id=${encodeURIComponent(id)}`,
  /** Where a builtin integration's RAG is created first. */
  rags: '/rag/add',
};
