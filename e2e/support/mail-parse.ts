import { defined } from '../../apps/console/src/test/defined';
// A small RFC 5322 / MIME reader for the mails our tests receive: headers (folded, RFC 2047 encoded
// words), nested multiparts, quoted-printable and base64 bodies in any charset TextDecoder knows.

export interface MailAttachment {
  filename: string | null;
  contentType: string;
  content: Buffer;
}

export interface ParsedMail {
  /** Recipient addresses from the To header, as written (no display names). */
  to: string[];
  from: string | null;
  subject: string;
  /** The first text/plain part (CRLF normalised to LF); '' when the mail has none. */
  text: string;
  /** The first text/html part; '' when the mail has none. */
  html: string;
  /** Header names lower-cased; values unfolded and decoded, in order of appearance. */
  headers: Map<string, string[]>;
  attachments: MailAttachment[];
}

interface Part {
  headers: Map<string, string[]>;
  /** Body bytes as a binary (latin1) string, still transfer-encoded. */
  body: string;
}

interface ContentType {
  type: string;
  params: Record<string, string>;
}

const toBinary = (raw: Buffer | string) =>
  (typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw).toString('latin1');

function decodeCharset(bytes: Buffer, charset = 'utf-8'): string {
  try {
    return new TextDecoder(charset.toLowerCase()).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Splits a message or part into its header block and body (binary strings). */
function splitPart(binary: string): Part {
  const match = /\r?\n\r?\n/.exec(binary);
  const headerBlock = match ? binary.slice(0, match.index) : binary;
  const body = match ? binary.slice(match.index + match[0].length) : '';
  return { headers: parseHeaders(headerBlock), body };
}

function parseHeaders(block: string): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  // Unfold: a line starting with white space continues the previous header.
  const unfolded = block.replace(/\r?\n(?=[ \t])/g, '');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // Raw 8-bit header bytes (SMTPUTF8) are UTF-8.
    const value = decodeWords(Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8'));
    headers.set(name, [...(headers.get(name) ?? []), value]);
  }
  return headers;
}

/** Decodes RFC 2047 encoded words; white space between two adjacent encoded words is dropped. */
export function decodeWords(value: string): string {
  const word = /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g;
  return value
    .replace(/(=\?[^?]+\?[bBqQ]\?[^?]*\?=)\s+(?==\?[^?]+\?[bBqQ]\?[^?]*\?=)/g, '$1')
    .replace(word, (_all, charset: string, encoding: string, text: string) => {
      const lang = charset.indexOf('*');
      const cs = lang >= 0 ? charset.slice(0, lang) : charset;
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            );
      return decodeCharset(bytes, cs);
    });
}

export function parseContentType(value: string | undefined): ContentType {
  if (!value) return { type: 'text/plain', params: { charset: 'us-ascii' } };
  const [type = '', ...rest] = splitParams(value);
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq <= 0) continue;
    let paramValue = param.slice(eq + 1).trim();
    if (paramValue.startsWith('"') && paramValue.endsWith('"')) {
      paramValue = paramValue.slice(1, -1).replace(/\\(.)/g, '$1');
    }
    params[param.slice(0, eq).trim().toLowerCase()] = paramValue;
  }
  return { type: type.trim().toLowerCase() || 'text/plain', params };
}

/** Splits `a; b="x;y"; c` on semicolons outside quotes. */
function splitParams(value: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = defined(value[i]);
    if (char === '\\' && quoted) {
      current += char + (value[i + 1] ?? '');
      i++;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter(Boolean);
}

export function decodeQuotedPrintable(binary: string): Buffer {
  const joined = binary
    .replace(/[ \t]+(?=\r?\n|$)/g, '')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(joined, 'latin1');
}

function decodeBody(part: Part): Buffer {
  const encoding = (part.headers.get('content-transfer-encoding')?.[0] ?? '7bit').trim().toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  return Buffer.from(part.body, 'latin1');
}

function splitMultipart(body: string, boundary: string): string[] {
  const escaped = boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const delimiter = new RegExp(`(?:^|\\r?\\n)--${escaped}(--)?[ \\t]*(?:\\r?\\n|$)`, 'g');
  const parts: string[] = [];
  let start: number | null = null;
  for (let match = delimiter.exec(body); match; match = delimiter.exec(body)) {
    if (start !== null) parts.push(body.slice(start, match.index));
    if (match[1]) return parts;
    start = match.index + match[0].length;
  }
  // No closing delimiter: keep what followed the last opening one.
  if (start !== null) parts.push(body.slice(start));
  return parts;
}

function filenameOf(part: Part, contentType: ContentType): string | null {
  const disposition = parseContentType(part.headers.get('content-disposition')?.[0]);
  const name = disposition.params.filename ?? contentType.params.name;
  return name ? decodeWords(name) : null;
}

function collect(part: Part, into: { text: string[]; html: string[]; attachments: MailAttachment[] }) {
  const contentType = parseContentType(part.headers.get('content-type')?.[0]);
  if (contentType.type.startsWith('multipart/')) {
    const boundary = contentType.params.boundary;
    if (!boundary) return;
    for (const child of splitMultipart(part.body, boundary)) collect(splitPart(child), into);
    return;
  }
  const isAttachment = /^\s*attachment/i.test(part.headers.get('content-disposition')?.[0] ?? '');
  const content = decodeBody(part);
  if (!isAttachment && contentType.type === 'text/plain') {
    into.text.push(decodeCharset(content, contentType.params.charset).replace(/\r\n/g, '\n'));
  } else if (!isAttachment && contentType.type === 'text/html') {
    into.html.push(decodeCharset(content, contentType.params.charset));
  } else {
    into.attachments.push({
      filename: filenameOf(part, contentType),
      contentType: contentType.type,
      content,
    });
  }
}

/** Addresses of an address-list header: `"Doe, J" <j@x.io>, k@y.io` -> ['j@x.io', 'k@y.io']. */
export function parseAddresses(value: string | undefined): string[] {
  if (!value) return [];
  const withoutQuoted = value.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\([^)]*\)/g, '');
  const addresses: string[] = [];
  for (const entry of withoutQuoted.split(',')) {
    const angle = /<([^>]*)>/.exec(entry);
    const address = (angle ? defined(angle[1]) : entry.replace(/^[^:]*:/, '').replace(/;$/, '')).trim();
    if (address.includes('@')) addresses.push(address);
  }
  return addresses;
}

/** Parses a raw RFC 822 message (as received over SMTP). */
export function parseMail(raw: Buffer | string): ParsedMail {
  const root = splitPart(toBinary(raw));
  const found = { text: [] as string[], html: [] as string[], attachments: [] as MailAttachment[] };
  collect(root, found);
  const first = (name: string) => root.headers.get(name)?.[0];
  return {
    to: parseAddresses(root.headers.get('to')?.join(', ')),
    from: parseAddresses(first('from'))[0] ?? null,
    subject: first('subject') ?? '',
    text: found.text[0] ?? '',
    html: found.html[0] ?? '',
    headers: root.headers,
    attachments: found.attachments,
  };
}

const HTML_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  apos: "'",
};

/** Every distinct http(s) link in a text or HTML body, in order of appearance. */
export function extractLinks(body: string): string[] {
  const decoded = body.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_m, name: string) =>
    defined(HTML_ENTITIES[name]),
  );
  const links: string[] = [];
  for (const match of decoded.matchAll(/https?:\/\/[^\s<>"'`]+/g)) {
    // Sentence punctuation and closing brackets around a link are not part of it.
    const link = match[0].replace(/[.,;:!?)\]}]+$/, '');
    if (!links.includes(link)) links.push(link);
  }
  return links;
}
