import type { ReactNode } from 'react';

/** Link schemes a bot message may use; any other link is shown as its text only. */
const SAFE_LINK_PROTOCOLS = ['http:', 'https:', 'mailto:', 'tel:'] as const;

const INLINE_DEPTH_MAX = 4;

/** The absolute URL of a link when its scheme is on the safe list, else null. Relative URLs are refused. */
export function safeHref(raw: string): string | null {
  if (!URL.canParse(raw)) return null;
  const url = new URL(raw);
  return (SAFE_LINK_PROTOCOLS as readonly string[]).includes(url.protocol) ? url.href : null;
}

/** An image URL from the configuration when it is http(s); anything else draws no image. */
export function safeImage(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const { protocol, href } = new URL(url);
  return protocol === 'http:' || protocol === 'https:' ? href : null;
}

// Inline code, bold, italic, [text](url), bare http(s) URLs and citations [n], in that order of precedence.
const INLINE =
  /`([^`\n]+)`|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s](?:[^*]*[^*\s])?)\*|\b_([^_\s](?:[^_]*[^_\s])?)_\b|\[([^\]\n]+)\]\(\s*<?([^\s<>()]+)>?\s*\)|(https?:\/\/[^\s<>"]*[^\s<>".,:;'!?)\]])|\[(\d{1,3})\]/g;

/** Draws the citation `[n]` of an answer as a link to its source; null leaves the text as it is. */
export type Cite = (n: number, key: string) => ReactNode | null;

function link(href: string | null, children: ReactNode, key: string): ReactNode {
  if (href === null) return <span key={key}>{children}</span>;
  return (
    <a key={key} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

function inline(text: string, depth: number, keyPrefix: string, cite?: Cite): ReactNode[] {
  if (depth > INLINE_DEPTH_MAX) return [text];
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const start = match.index;
    if (start > last) nodes.push(text.slice(last, start));
    const key = `${keyPrefix}.${start}`;
    const [, code, bold, boldAlt, italic, italicAlt, linkText, linkUrl, bareUrl, citation] = match;
    if (code !== undefined) nodes.push(<code key={key}>{code}</code>);
    else if (bold !== undefined || boldAlt !== undefined)
      nodes.push(<strong key={key}>{inline(bold ?? boldAlt ?? '', depth + 1, key, cite)}</strong>);
    else if (italic !== undefined || italicAlt !== undefined)
      nodes.push(<em key={key}>{inline(italic ?? italicAlt ?? '', depth + 1, key, cite)}</em>);
    else if (linkText !== undefined && linkUrl !== undefined)
      nodes.push(link(safeHref(linkUrl), inline(linkText, depth + 1, key), key));
    else if (bareUrl !== undefined) nodes.push(link(safeHref(bareUrl), bareUrl, key));
    else if (citation !== undefined) nodes.push(cite?.(Number(citation), key) ?? match[0]);
    last = start + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

type Block =
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'code'; text: string };

const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*)$/;
const FENCE = /^\s*```/;

/** Splits Markdown text into paragraphs, lists and fenced code blocks. */
function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (FENCE.test(line)) {
      const body: string[] = [];
      index += 1;
      while (index < lines.length && !FENCE.test(lines[index] ?? '')) body.push(lines[index++] ?? '');
      index += 1;
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet === null ? NUMBERED.exec(line) : null;
    if (bullet !== null || numbered !== null) {
      const ordered = numbered !== null;
      const pattern = ordered ? NUMBERED : BULLET;
      const items: string[] = [];
      let item = pattern.exec(lines[index] ?? '');
      while (item !== null) {
        items.push(item[1] ?? '');
        index += 1;
        item = index < lines.length ? pattern.exec(lines[index] ?? '') : null;
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    if (line.trim() === '') {
      index += 1;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      blocks.push({ kind: 'paragraph', lines: [`**${heading[1] ?? ''}**`] });
      index += 1;
      continue;
    }
    const paragraph: string[] = [];
    while (index < lines.length) {
      const next = lines[index] ?? '';
      if (
        next.trim() === '' ||
        FENCE.test(next) ||
        BULLET.test(next) ||
        NUMBERED.test(next) ||
        HEADING.test(next)
      )
        break;
      paragraph.push(next);
      index += 1;
    }
    blocks.push({ kind: 'paragraph', lines: paragraph });
  }
  return blocks;
}

/**
 * A safe Markdown subset for bot messages built as React elements: paragraphs, line breaks, lists, fenced and
 * inline code, bold, italic and links. Nothing is parsed as HTML, so markup in the text shows as text; links
 * keep only http, https, mailto and tel URLs and open in a new tab without access to this window. With `cite`,
 * citations such as [1] are drawn by it.
 */
export function Markdown({ text, cite }: { text: string; cite?: Cite }) {
  return (
    <>
      {blocksOf(text).map((block, blockIndex) => {
        const key = String(blockIndex);
        if (block.kind === 'code')
          return (
            <pre key={key}>
              <code>{block.text}</code>
            </pre>
          );
        if (block.kind === 'list') {
          const items = block.items.map((item, itemIndex) => (
            <li key={itemIndex}>{inline(item, 0, `${key}.${itemIndex}`, cite)}</li>
          ));
          return block.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
        }
        return (
          <p key={key}>
            {block.lines.flatMap((line, lineIndex) => [
              ...(lineIndex > 0 ? [<br key={`${key}.br${lineIndex}`} />] : []),
              ...inline(line, 0, `${key}.${lineIndex}`, cite),
            ])}
          </p>
        );
      })}
    </>
  );
}
