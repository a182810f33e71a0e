import { isProbablyReaderable, Readability } from '@mozilla/readability';
import {
  htmlToBlocks,
  parseHtmlDocument,
  parseHtmlFragment,
  removeNoise,
  type DomDocument,
  type DomNode,
} from './html-blocks';
import { BlockSink } from './blocks';
import { normaliseInline } from './normalise';
import type { ParsedDocument } from './types';

// Readability's result is used only when it keeps at least this share of the page's text (else it cut real content).
const MIN_ARTICLE_SHARE = 0.3;

function soleArticle(page: DomDocument): DomNode | null {
  const articles = page.querySelectorAll('article');
  return articles.length === 1 ? (articles[0] ?? null) : null;
}

function textLength(node: DomNode | null): number {
  return normaliseInline(node?.textContent ?? '').length;
}

/** The main content: Readability's article when the page reads like one, else the main region or the body, without navigation and footers. */
function mainContent(html: string): { root: DomNode; title: string | null; h1: string | null } {
  const page = parseHtmlDocument(html);
  const pageTitle = normaliseInline(page.title || '') || null;
  const h1 = normaliseInline(page.querySelector('h1')?.textContent ?? '') || null;
  removeNoise(page);
  const body = page.body ?? page;
  const bodyLength = textLength(body);

  if (isProbablyReaderable(page)) {
    // Readability rewrites the tree it reads, so it gets its own copy.
    const copy = parseHtmlDocument(html);
    removeNoise(copy);
    const article = new Readability(copy, { charThreshold: 200 }).parse();
    if (article?.content) {
      const root = parseHtmlFragment(article.content);
      if (textLength(root) >= bodyLength * MIN_ARTICLE_SHARE) {
        return { root, title: h1 ?? (normaliseInline(article.title ?? '') || pageTitle), h1 };
      }
    }
  }
  // Not an article: the page's marked main region if it has one, else the whole body.
  const main = page.querySelector('main, [role="main"]') ?? soleArticle(page) ?? body;
  return { root: main, title: h1 ?? pageTitle, h1 };
}

export function parseHtml(html: string): ParsedDocument {
  const { root, title, h1 } = mainContent(html);
  const sink = new BlockSink();
  // Readability drops the article's h1 (it becomes the title); put it back so heading paths start with it.
  if (h1 && !hasH1(root)) sink.heading(1, h1);
  htmlToBlocks(root, {}, sink);
  return { format: 'html', title, blocks: sink.blocks };
}

function hasH1(root: DomNode): boolean {
  return (root.querySelectorAll?.('h1').length ?? 0) > 0;
}
