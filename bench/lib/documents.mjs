// Synthetic documents for the ingestion benchmark: a many-page PDF written byte by byte (as the ingestion
// fixtures' make-fixtures.mjs writes its PDFs) and HTML pages of the same size, from deterministic
// pseudo-random English-like text, so every run reads the same bytes.
import { makePdf as writePdf } from '../../apps/server/src/modules/knowledge/ingest/fixtures/pdf-writer.mjs';

/** Deterministic pseudo-random numbers (mulberry32). */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON = (
  'the of and to a in is it that was for on are with as be at by this from or have an which one all ' +
  'were there when your can said each how their will other about many then them these some would so more ' +
  'time could people water first been who now long find down day did get come made may part over new ' +
  'sound take only little work know place year live back give most very after thing our just name good'
).split(' ');
const SYLLABLES =
  'ka lo mi ter van sol dri pen ru bex cha no fi gar tul mes ob ri zen pla cor du ven sta'.split(' ');

/** A writer of sentences: common words mixed with a vocabulary of made-up content words, Zipf-like. */
export function textWriter(seed) {
  const rand = random(seed);
  const vocabulary = [];
  const seen = new Set();
  while (vocabulary.length < 5000) {
    let word = '';
    for (let i = 0, n = 2 + Math.floor(rand() * 3); i < n; i++)
      word += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    if (!seen.has(word)) {
      seen.add(word);
      vocabulary.push(word);
    }
  }
  const word = () =>
    rand() < 0.45
      ? COMMON[Math.floor(rand() * COMMON.length)]
      : vocabulary[Math.floor(vocabulary.length * rand() * rand())];
  return {
    /** `count` words, as lines of at most `width` characters. */
    lines(count, width) {
      const out = [];
      let line = '';
      for (let i = 0; i < count; i++) {
        const next = word();
        if (line.length + next.length + 1 > width) {
          out.push(line);
          line = next;
        } else line = line ? `${line} ${next}` : next;
      }
      if (line) out.push(line);
      return out;
    },
    /** A question: 2-5 content words of the vocabulary around a few common words, ending in a question mark. */
    question() {
      const content = Array.from(
        { length: 2 + Math.floor(rand() * 4) },
        () => vocabulary[Math.floor(vocabulary.length * rand() * rand())],
      );
      for (let i = 0, n = 1 + Math.floor(rand() * 3); i < n; i++)
        content.splice(Math.floor(rand() * content.length), 0, COMMON[Math.floor(rand() * 12)]);
      const first = content[0] ?? '';
      content[0] = first.charAt(0).toUpperCase() + first.slice(1);
      return `${content.join(' ')}?`;
    },
    sentence(count) {
      const words = Array.from({ length: count }, word);
      const first = words[0] ?? '';
      words[0] = first.charAt(0).toUpperCase() + first.slice(1);
      return `${words.join(' ')}.`;
    },
  };
}

/** A PDF whose pages are given as lines of text in Helvetica 11 pt, one text object per page. */
export const makePdf = (pages, title) =>
  writePdf(pages, title, { fontSize: 11, top: 740, producer: 'omnibot bench' });

/** About `wordsPerPage` words on each of `pageCount` pages: a heading, then lines that fit the page width. */
export function manyPagePdf(pageCount, wordsPerPage = 450, seed = 1) {
  const writer = textWriter(seed);
  const pages = [];
  for (let p = 1; p <= pageCount; p++) {
    // 72 characters of Helvetica 11 pt fit within the page margins; longer lines would be cut off.
    pages.push([`Chapter ${p}`, '', ...writer.lines(wordsPerPage, 72)]);
  }
  return makePdf(pages, `Bench manual, ${pageCount} pages`);
}

/** A web page of about `words` words of article text inside navigation, a cookie banner and a footer. */
export function htmlPage(index, words = 450, seed = 1) {
  const writer = textWriter(seed * 1000 + index);
  const sections = [];
  let left = words;
  for (let s = 1; left > 0; s++) {
    const paragraphs = [];
    for (let p = 0; p < 3 && left > 0; p++) {
      const count = Math.min(left, 40);
      paragraphs.push(`<p>${writer.sentence(count)}</p>`);
      left -= count;
    }
    sections.push(`<h2>Section ${s}</h2>\n${paragraphs.join('\n')}`);
  }
  return Buffer.from(
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Page ${index} | Bench docs</title>
<script>window.analytics = { track() {} };</script></head>
<body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/docs">Docs</a></li><li><a href="/blog">Blog</a></li></ul></nav>
<div class="cookie-banner"><p>We use cookies. <a href="/privacy">Privacy</a></p></div>
<main><article><h1>Page ${index}</h1>
${sections.join('\n')}
</article></main>
<footer><p>© 2026 Bench Corp.</p></footer>
</body></html>
`,
    'utf8',
  );
}
