/** The console addresses of the RAG pages. */
export const ragPaths = {
  list: '/rag',
  add: '/rag/add',
  view: (id: string) => `/rag/view?id=${encodeURIComponent(id)}`,
  /** The index screens, where a RAG's index is created first. */
  indexes: '/index',
  /** The prompt screens, for a RAG's own prompt. */
  prompts: '/prompt',
};
