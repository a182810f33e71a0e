import { BlockSink } from './blocks';
import { rowText } from './html-blocks';
import { normaliseInline } from './normalise';
import type { ParsedDocument } from './types';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const SETEXT = /^ {0,3}(=+|-+)\s*$/;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;

/** Inline Markdown to plain text: link and image text kept, emphasis, code marks and HTML tags dropped. */
export function stripInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(\*|_)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>])/g, '$1');
}

function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => normaliseInline(stripInline(cell)));
}

/** A structural Markdown reader: headings (ATX and setext), nested lists, pipe tables, code fences, paragraphs. */
export function parseMarkdown(source: string): ParsedDocument {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const sink = new BlockSink();
  let i = 0;
  // Front matter is metadata, not text.
  if (lines[0]?.trim() === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) i = end + 1;
  }
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) sink.add('paragraph', stripInline(paragraph.join(' ')));
    paragraph = [];
  };
  // Indentation of each open list level, to turn indentation into nesting depth.
  let listIndents: number[] = [];

  while (i < lines.length) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1] ?? '```';
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? '').trim().startsWith(marker)) body.push(lines[i++] ?? '');
      sink.add('code', body.join('\n'));
      i++;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      flush();
      listIndents = [];
      sink.heading(atx[1]?.length ?? 1, stripInline(atx[2] ?? ''));
      i++;
      continue;
    }
    const next = lines[i + 1] ?? '';
    if (
      line.trim() &&
      !LIST_ITEM.test(line) &&
      paragraph.length === 0 &&
      SETEXT.test(next) &&
      !line.includes('|')
    ) {
      sink.heading(next.trim().startsWith('=') ? 1 : 2, stripInline(line));
      i += 2;
      continue;
    }
    if (line.includes('|') && TABLE_SEPARATOR.test(next) && next.includes('-')) {
      flush();
      const header = tableCells(line);
      i += 2;
      while (i < lines.length && (lines[i] ?? '').includes('|') && (lines[i] ?? '').trim()) {
        sink.add('table-row', rowText(header, tableCells(lines[i] ?? '')));
        i++;
      }
      continue;
    }
    if (THEMATIC_BREAK.test(line)) {
      flush();
      i++;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      const indent = (item[1] ?? '').replace(/\t/g, '    ').length;
      while (listIndents.length && (listIndents.at(-1) ?? 0) > indent) listIndents.pop();
      if (!listIndents.length || (listIndents.at(-1) ?? 0) < indent) listIndents.push(indent);
      const text = [item[2] ?? ''];
      i++;
      // Lazy continuation lines belong to the item; a blank line, another item or a block construct ends it.
      while (i < lines.length) {
        const cont = lines[i] ?? '';
        if (!cont.trim() || LIST_ITEM.test(cont) || ATX.test(cont) || FENCE.test(cont)) break;
        text.push(cont.trim());
        i++;
      }
      sink.add('list-item', stripInline(text.join(' ')), { level: listIndents.length });
      continue;
    }
    if (!line.trim()) {
      flush();
      if (!LIST_ITEM.test(next) && next.trim() && !/^\s/.test(next)) listIndents = [];
      i++;
      continue;
    }
    paragraph.push(line.replace(/^ {0,3}>\s?/, '').trim());
    i++;
  }
  flush();
  return { format: 'markdown', title: sink.firstTitle(), blocks: sink.blocks };
}
