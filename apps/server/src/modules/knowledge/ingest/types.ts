export type BlockKind = 'heading' | 'paragraph' | 'list-item' | 'table-row' | 'code';

/** One structural unit of a document, in reading order. */
export interface Block {
  kind: BlockKind;
  text: string;
  /** Heading level 1-6, or the nesting depth of a list item (1 = top level). */
  level?: number;
  /** Titles of the enclosing headings, outermost first; a heading's own path ends with itself. */
  headingPath: string[];
  /** 1-based page number (PDF only). */
  page?: number;
}

export type DocumentFormat = 'pdf' | 'docx' | 'html' | 'markdown' | 'csv' | 'text';

export interface ParsedDocument {
  format: DocumentFormat;
  /** The document's own title, else its file name without the extension, else null. */
  title: string | null;
  blocks: Block[];
  /** Number of pages (PDF only). */
  pageCount?: number;
}
