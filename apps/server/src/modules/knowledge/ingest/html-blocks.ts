import { parseHTML } from 'linkedom';
import { BlockSink } from './blocks';
import { normaliseInline } from './normalise';

/** The few DOM members the walker reads (linkedom's nodes provide them). */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode | null;
  getAttribute?(name: string): string | null;
  querySelectorAll?(selector: string): ArrayLike<DomNode>;
  remove?(): void;
}

export interface DomDocument extends DomNode {
  body: DomNode | null;
  title: string;
  querySelector(selector: string): DomNode | null;
  querySelectorAll(selector: string): ArrayLike<DomNode>;
}

const ELEMENT = 1;
const TEXT = 3;

/** Elements whose content is never part of the document's text. */
const NOISE_SELECTOR =
  'script, style, noscript, template, iframe, object, embed, svg, canvas, nav, footer, aside, form, button, select, [hidden], [aria-hidden="true"], [role="navigation"], [role="contentinfo"]';

const HEADING = /^H([1-6])$/;
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'IMG', 'VIDEO', 'AUDIO', 'PICTURE']);
// Elements that end the running paragraph; all others are inline and add their text to it.
const BLOCK_LEVEL = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'CAPTION',
  'DD',
  'DETAILS',
  'DIALOG',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HGROUP',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'UL',
  'HTML',
]);

/** Adds the <html>, <head> and <body> wrappers a page may leave out (linkedom does not infer them). */
function wholeDocument(html: string): string {
  if (/<html[\s>]/i.test(html) && /<body[\s>]/i.test(html)) return html;
  const head = /<head[\s>][\s\S]*?<\/head\s*>/i.exec(html)?.[0] ?? '<head></head>';
  const rest = html
    .replace(/<head[\s>][\s\S]*?<\/head\s*>/i, '')
    .replace(/<!doctype[^>]*>|<\/?(?:html|body)(?:\s[^>]*)?>/gi, '');
  return `<!doctype html><html>${head}<body>${rest}</body></html>`;
}

export function parseHtmlDocument(html: string): DomDocument {
  const { document } = parseHTML(wholeDocument(html)) as unknown as { document: DomDocument };
  return document;
}

/** The element tree of an HTML fragment, under a body element. */
export function parseHtmlFragment(html: string): DomNode {
  const document = parseHtmlDocument(`<body>${html}</body>`);
  return document.body ?? document;
}

export function removeNoise(root: DomNode): void {
  const found = root.querySelectorAll?.(NOISE_SELECTOR);
  if (!found) return;
  for (const node of Array.from(found)) node.remove?.();
}

const children = (node: DomNode) => Array.from(node.childNodes);
const isElement = (node: DomNode) => node.nodeType === ELEMENT;

function elementChildren(node: DomNode, names: Set<string>): DomNode[] {
  return children(node).filter((c) => isElement(c) && names.has(c.nodeName));
}

/** Text of a node without the text of nested lists (which become their own blocks). */
function ownText(node: DomNode, exclude: Set<string>): string {
  if (node.nodeType === TEXT) return node.textContent ?? '';
  if (!isElement(node) || SKIP.has(node.nodeName) || exclude.has(node.nodeName)) return '';
  if (node.nodeName === 'BR') return '\n';
  const inner = children(node)
    .map((c) => ownText(c, exclude))
    .join('');
  return BLOCK_LEVEL.has(node.nodeName) ? ` ${inner} ` : inner;
}

export interface WalkOptions {
  /** Treat a table's first row as its header even without <th> cells (Word tables have none). */
  firstRowIsHeader?: boolean;
}

/** Walks an element tree and turns headings, paragraphs, list items, table rows and code into blocks. */
export function htmlToBlocks(root: DomNode, options: WalkOptions = {}, sink = new BlockSink()): BlockSink {
  let inline = '';
  const flush = () => {
    sink.add('paragraph', inline);
    inline = '';
  };

  const walkList = (list: DomNode, depth: number) => {
    for (const item of elementChildren(list, new Set(['LI']))) {
      sink.add('list-item', ownText(item, new Set(['UL', 'OL', 'PRE', 'TABLE'])), { level: depth });
      for (const nested of children(item)) {
        if (!isElement(nested)) continue;
        if (nested.nodeName === 'UL' || nested.nodeName === 'OL') walkList(nested, depth + 1);
        else if (nested.nodeName === 'PRE' || nested.nodeName === 'TABLE') visit(nested);
      }
    }
  };

  const walkTable = (table: DomNode) => {
    const rows: DomNode[] = [];
    const collect = (node: DomNode) => {
      for (const child of children(node)) {
        if (!isElement(child)) continue;
        if (child.nodeName === 'TR') rows.push(child);
        else if (['THEAD', 'TBODY', 'TFOOT'].includes(child.nodeName)) collect(child);
        else if (child.nodeName === 'CAPTION') sink.add('paragraph', ownText(child, new Set()));
      }
    };
    collect(table);
    const cellsOf = (row: DomNode) =>
      elementChildren(row, new Set(['TD', 'TH'])).map((cell) => normaliseInline(ownText(cell, new Set())));
    let header: string[] | null = null;
    rows.forEach((row, index) => {
      const cells = cellsOf(row);
      const allTh = elementChildren(row, new Set(['TD', 'TH'])).every((c) => c.nodeName === 'TH');
      const inHead = row.parentNode?.nodeName === 'THEAD';
      if (index === 0 && rows.length > 1 && (allTh || inHead || options.firstRowIsHeader)) {
        header = cells;
        return;
      }
      sink.add('table-row', rowText(header, cells));
    });
  };

  const visit = (node: DomNode) => {
    if (node.nodeType === TEXT) {
      inline += node.textContent ?? '';
      return;
    }
    if (!isElement(node) || SKIP.has(node.nodeName)) return;
    const name = node.nodeName;
    const heading = HEADING.exec(name);
    if (heading) {
      flush();
      sink.heading(Number(heading[1]), ownText(node, new Set()));
    } else if (name === 'UL' || name === 'OL') {
      flush();
      walkList(node, 1);
    } else if (name === 'TABLE') {
      flush();
      walkTable(node);
    } else if (name === 'PRE') {
      flush();
      sink.add('code', node.textContent ?? '');
    } else if (name === 'BR') {
      inline += ' ';
    } else if (BLOCK_LEVEL.has(name)) {
      flush();
      for (const child of children(node)) visit(child);
      flush();
    } else {
      for (const child of children(node)) visit(child);
    }
  };

  visit(root);
  flush();
  return sink;
}

/** A table row as "Header: value; Header: value", or the cells joined by "; " when the table has no header. */
export function rowText(header: string[] | null, cells: string[]): string {
  if (!header) return cells.filter(Boolean).join('; ');
  return cells
    .map((value, i) => (value ? `${header[i] || `Column ${i + 1}`}: ${value}` : ''))
    .filter(Boolean)
    .join('; ');
}
