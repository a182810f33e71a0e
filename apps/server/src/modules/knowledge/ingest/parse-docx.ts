import mammoth from 'mammoth';
import { htmlToBlocks, parseHtmlFragment } from './html-blocks';
import { ParseError } from './parse-error';
import type { ParsedDocument } from './types';

/** Word documents: mammoth turns styles into HTML (Heading 1 → h1, lists, tables), then the HTML walker makes blocks. */
export async function parseDocx(bytes: Uint8Array): Promise<ParsedDocument> {
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { ignoreEmptyParagraphs: true },
    );
    html = result.value;
  } catch {
    throw new ParseError(
      'parse/corrupt',
      'The Word document could not be read; it may be damaged. Open it in Word, save it again and upload the new copy.',
    );
  }
  const sink = htmlToBlocks(parseHtmlFragment(html), { firstRowIsHeader: true });
  return { format: 'docx', title: sink.firstTitle(), blocks: sink.blocks };
}
