import type { KnowledgeSource } from '@omnibot/contracts';

export const SOURCE_TYPE_LABEL: Record<KnowledgeSource['type'], string> = {
  text: 'Text',
  qa: 'Q&A',
  file: 'File',
  url: 'Web page',
  sitemap: 'Sitemap',
};

/** What the user knows the source by: its title, address or path. */
export const sourceName = (source: KnowledgeSource) =>
  source.title ?? source.url ?? source.path ?? SOURCE_TYPE_LABEL[source.type];

/** What the file picker calls the files a knowledge base reads. */
export const KNOWLEDGE_FILE_LABEL = 'PDF, DOCX, HTML, Markdown, TXT or CSV';
