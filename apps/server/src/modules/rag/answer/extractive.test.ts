import { describe, expect, it } from 'vitest';
import { extractiveAnswer, shortenSentence } from './extractive';
import { HELP_CENTRE, QUESTIONS } from './fixtures/help-centre';
import { splitSentences, terms } from './text';
import type { Passage } from './types';

/** Ranks the fixture's passages for a question with textbook BM25 over whole passages, as keyword retrieval would. */
function rank(question: string, passages: Passage[] = HELP_CENTRE): Passage[] {
  const docs = passages.map((p) => terms(`${p.title} ${p.headingPath.join(' ')} ${p.text}`, 'en'));
  const average = docs.reduce((sum, d) => sum + d.length, 0) / docs.length;
  const wanted = new Set(terms(question, 'en'));
  const scored = passages.map((passage, i) => {
    const doc = docs[i] ?? [];
    let score = 0;
    for (const term of wanted) {
      const df = docs.filter((d) => d.includes(term)).length;
      const tf = doc.filter((t) => t === term).length;
      if (tf === 0) continue;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      score += (idf * tf * 1.9) / (tf + 0.9 * (0.6 + (0.4 * doc.length) / average));
    }
    return { ...passage, score };
  });
  return scored
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
}

function hitRate(maxSentences: number, maxPassages: number): { rate: number; misses: string[] } {
  const misses: string[] = [];
  for (const { question, expected } of QUESTIONS) {
    const result = extractiveAnswer({
      question,
      passages: rank(question),
      language: 'en',
      maxSentences,
      maxPassages,
    });
    if (!result?.answer.includes(expected)) misses.push(`${question} -> ${result?.answer ?? 'null'}`);
  }
  return { rate: (QUESTIONS.length - misses.length) / QUESTIONS.length, misses };
}

describe('extractive answer quality on the help-centre fixture', () => {
  it('contains the answering sentence more often with the best 2 of the top 3 passages than with 1 of the first', () => {
    const wide = hitRate(2, 3);
    const narrow = hitRate(1, 1);
    console.log(
      `extractive answers containing the expected sentence over ${QUESTIONS.length} questions: ` +
        `best 2 from top 3 ${(wide.rate * 100).toFixed(1)} %, best 1 from first ${(narrow.rate * 100).toFixed(1)} %`,
    );
    if (wide.misses.length > 0) console.log(`misses (2 from 3):\n  ${wide.misses.join('\n  ')}`);
    if (narrow.misses.length > 0) console.log(`misses (1 from 1):\n  ${narrow.misses.join('\n  ')}`);
    // Measured: 76.0 % and 68.0 %; the floors sit a few points below.
    expect(wide.rate).toBeGreaterThanOrEqual(0.72);
    expect(narrow.rate).toBeGreaterThanOrEqual(0.6);
    expect(wide.rate).toBeGreaterThan(narrow.rate);
  });
});

const passage = (chunkId: string, text: string, extra: Partial<Passage> = {}): Passage => ({
  chunkId,
  sourceId: `source-${chunkId}`,
  text,
  score: 1,
  title: `Title ${chunkId}`,
  headingPath: [],
  ...extra,
});

describe('extractive answer', () => {
  it('cites each sentence with [n], numbers sources by first appearance and lists them with title, link and page', () => {
    const passages = rank('How do I start a return and when do I get a refund?');
    const result = extractiveAnswer({
      question: 'How do I start a return and when do I get a refund?',
      passages,
    });
    expect(result).not.toBeNull();
    if (!result) return;
    expect(result.citations).toHaveLength(2);
    for (const citation of result.citations) {
      expect(result.answer).toContain(`${citation.sentence} [${citation.n}]`);
      const source = result.sources.find((s) => s.n === citation.n);
      expect(source?.chunkId).toBe(citation.chunkId);
    }
    expect(result.sources.map((s) => s.n)).toEqual(result.sources.map((_, i) => i + 1));
    expect(result.usedChunkIds).toEqual(result.sources.map((s) => s.chunkId));
    const returns = HELP_CENTRE.find((p) => p.chunkId === 'c-returns');
    const cited = result.sources.find((s) => s.chunkId === 'c-returns');
    expect(cited).toEqual({
      n: cited?.n,
      chunkId: 'c-returns',
      sourceId: 's-returns',
      title: 'Returns and refunds',
      url: returns?.url,
      headingPath: ['Returns', 'Returning an item'],
      page: null,
    });
  });

  it('keeps the chosen sentences of one passage in document order and is deterministic', () => {
    const text =
      'Alpha widgets are blue. Our office is in Berlin. Widgets ship in boxes of ten widgets. Beta widgets are red.';
    const input = { question: 'Which widgets are red or blue?', passages: [passage('a', text)] };
    const result = extractiveAnswer(input);
    expect(result?.answer).toBe('Alpha widgets are blue. [1] Beta widgets are red. [1]');
    expect(extractiveAnswer(input)).toEqual(result);
  });

  it('takes sentences only from the top maxPassages passages and at most maxSentences of them', () => {
    const passages = [
      passage('one', 'The blue lamp costs ten euros.'),
      passage('two', 'Nothing related is said here at all.'),
      passage('three', 'The blue lamp has a blue cable and a blue switch.'),
    ];
    const top2 = extractiveAnswer({ question: 'blue lamp', passages, maxPassages: 2 });
    expect(top2?.usedChunkIds).toEqual(['one']);
    const all = extractiveAnswer({ question: 'blue lamp', passages, maxSentences: 1 });
    expect(all?.citations).toHaveLength(1);
    const both = extractiveAnswer({ question: 'blue lamp', passages });
    expect(both?.usedChunkIds.sort()).toEqual(['one', 'three']);
  });

  it('gives the better-ranked passage the edge between equally relevant sentences, and skips repeated overlap', () => {
    const same = 'Parcels are collected every weekday at noon.';
    const passages = [passage('first', same), passage('second', `${same} Collected parcels leave by truck.`)];
    const result = extractiveAnswer({ question: 'When are parcels collected?', passages });
    expect(result?.citations.map((c) => [c.chunkId, c.sentence])).toEqual([
      ['first', same],
      ['second', 'Collected parcels leave by truck.'],
    ]);
  });

  it('breaks a tie between equally relevant sentences in favour of the better-ranked passage', () => {
    const noon = passage('noon', 'Parcels are collected at noon.');
    const dawn = passage('dawn', 'Parcels are collected at dawn.');
    const ask = (passages: Passage[]) =>
      extractiveAnswer({ question: 'When are parcels collected?', passages, maxSentences: 1 })?.usedChunkIds;
    expect(ask([noon, dawn])).toEqual(['noon']);
    expect(ask([dawn, noon])).toEqual(['dawn']);
  });

  it('returns null for no passages, a question of stop words only, or no shared content term', () => {
    expect(extractiveAnswer({ question: 'How do I reset my password?', passages: [] })).toBeNull();
    expect(
      extractiveAnswer({ question: 'How do I do it, and what is it?', passages: HELP_CENTRE }),
    ).toBeNull();
    expect(extractiveAnswer({ question: '?!', passages: HELP_CENTRE })).toBeNull();
    expect(extractiveAnswer({ question: 'Do you sell bicycles?', passages: HELP_CENTRE })).toBeNull();
    expect(extractiveAnswer({ question: 'password', passages: [passage('h', 'Password')] })).toBeNull();
  });

  it('never quotes a heading line, a heading-path label or a fragment of a word or two', () => {
    const text =
      'Resetting your password\n\nPassword rules\n\nPassword!\n\nA password needs twelve characters.';
    const result = extractiveAnswer({
      question: 'password rules',
      passages: [passage('p', text, { headingPath: ['Account', 'Resetting your password'] })],
    });
    expect(result?.answer).toBe('A password needs twelve characters. [1]');
  });

  it('quotes list items, which carry no full stop, without their marker', () => {
    const text = 'We accept these cards:\n- Visa and Mastercard credit cards\n- American Express cards';
    const result = extractiveAnswer({
      question: 'Do you take Visa cards?',
      passages: [passage('l', text)],
      maxSentences: 1,
    });
    expect(result?.citations[0]?.sentence).toBe('Visa and Mastercard credit cards');
  });

  it('answers German and French passages with their own stop words and plural forms', () => {
    const german = [
      passage(
        'de',
        'Rechnungen finden Sie im Kundenkonto unter Bestellungen. Die Lieferung erfolgt am 3. Mai. ' +
          'Eine Rechnung kann z. B. als PDF heruntergeladen werden.',
      ),
    ];
    const de = extractiveAnswer({
      question: 'Wo finde ich meine Rechnung?',
      passages: german,
      language: 'de',
    });
    expect(de?.citations.map((c) => c.sentence)).toEqual([
      'Rechnungen finden Sie im Kundenkonto unter Bestellungen.',
      'Eine Rechnung kann z. B. als PDF heruntergeladen werden.',
    ]);
    expect(extractiveAnswer({ question: 'Wie und wo?', passages: german, language: 'de' })).toBeNull();

    const french = [
      passage(
        'fr',
        "Vous pouvez modifier l'adresse de livraison tant que la commande n'est pas expédiée. " +
          'Le remboursement prend 5 jours ouvrés. M. Dupont répond aux questions.',
      ),
    ];
    const fr = extractiveAnswer({
      question: "Comment changer l'adresse de livraison de mes commandes ?",
      passages: french,
      language: 'fr-FR',
      maxSentences: 1,
    });
    expect(fr?.answer).toBe(
      "Vous pouvez modifier l'adresse de livraison tant que la commande n'est pas expédiée. [1]",
    );
  });

  it('reuses a passage analysed before only while its chunk keeps the same text, title and heading path', () => {
    const passage = (text: string, title = 'Returns', headingPath: string[] = []): Passage => ({
      chunkId: 'chunk-reused',
      sourceId: 'source-1',
      text,
      score: 1,
      title,
      headingPath,
    });
    const ask = (p: Passage) =>
      extractiveAnswer({ question: 'How long is the refund window?', passages: [p] });
    const first = 'The refund window is thirty days from delivery.';
    expect(ask(passage(first))?.answer).toBe(`${first} [1]`);
    expect(ask(passage(first))?.answer).toBe(`${first} [1]`);
    // The same chunk id with other text (a re-synced source) is analysed again.
    const changed = 'The refund window is fourteen days from delivery.';
    expect(ask(passage(changed))?.answer).toBe(`${changed} [1]`);
    // A sentence that became the source's title is a label, never quoted.
    expect(ask(passage(changed, 'The refund window is fourteen days from delivery'))).toBeNull();
    expect(ask(passage(changed, 'Returns', ['The refund window is fourteen days from delivery']))).toBeNull();
    expect(ask(passage(changed))?.answer).toBe(`${changed} [1]`);
  });

  it('quotes a long sentence whole when it fits, and shortens a longer one only at clause boundaries', () => {
    const sentence =
      'You can return an item within thirty days of delivery, provided that it is unused and in its original ' +
      'packaging; the refund is paid to the card you used, and it usually arrives within five working days, ' +
      'although some banks take longer to show it on your statement.';
    const ask = (maxSentenceChars: number) =>
      extractiveAnswer({
        question: 'When is the refund paid to my card?',
        passages: [passage('r', sentence)],
        maxSentenceChars,
      })?.citations[0]?.sentence;
    expect(ask(400)).toBe(sentence);
    // The earliest run of clauses that holds "refund", "paid" and "card" and fits, grown while it fits.
    expect(ask(160)).toBe(
      'You can return an item within thirty days of delivery, provided that it is unused and in its original ' +
        'packaging; the refund is paid to the card you used…',
    );
    expect(ask(100)).toBe(
      '…provided that it is unused and in its original packaging; the refund is paid to the card you used…',
    );
    expect(ask(60)).toBe('…the refund is paid to the card you used…');
  });

  it('never cuts through the words that matched: the clauses between them stay whole, even past the limit', () => {
    const sentence =
      'Because our partner changed its timetable this spring, parcels to Norway are collected by our courier ' +
      'on Mondays, which means that an order placed on a Tuesday waits almost a week – and customs in Oslo may ' +
      'hold it for another two or three days before the local post office delivers it to the address on the order.';
    const wanted = new Set(
      terms('When are parcels to Norway collected, and how long do customs hold them?', 'en'),
    );
    const quoted = shortenSentence(sentence, wanted, 'en', 150);
    expect(quoted).toBe(`…${sentence.slice(sentence.indexOf('parcels to Norway'))}`);
    expect(quoted.length).toBeGreaterThan(150);
  });

  it('shortens a sentence without clause boundaries to its words only when it is far past the limit', () => {
    const filler = (word: string, count: number) => Array.from({ length: count }, () => word).join(' ');
    const sentence = `${filler('lorem', 60)} the warranty covers accidental damage ${filler('ipsum', 60)}.`;
    const quoted = shortenSentence(sentence, new Set(terms('warranty damage', 'en')), 'en', 120);
    expect(quoted.length).toBeLessThanOrEqual(240 + 2);
    expect(quoted).toContain('the warranty covers accidental damage');
    expect(quoted.startsWith('…')).toBe(true);
    expect(quoted.endsWith('…')).toBe(true);
    expect(shortenSentence('short one.', new Set(), 'en', 50)).toBe('short one.');
    expect(
      shortenSentence(`${'x'.repeat(500)} tail`, new Set(['tail']), 'en', 100).length,
    ).toBeLessThanOrEqual(202);
  });

  it('cuts German and French sentences after commas, and before their conjunctions only when far too long', () => {
    const german =
      'Die Rücksendung ist innerhalb von dreißig Tagen kostenlos, wenn die Ware unbenutzt ist, und die ' +
      'Erstattung erfolgt auf das Konto, mit dem Sie bezahlt haben, sobald das Paket in unserem Lager in ' +
      'Hamburg geprüft wurde, was meistens drei Werktage dauert.';
    const de = shortenSentence(german, new Set(terms('Wann erfolgt die Erstattung?', 'de')), 'de', 120);
    expect(de).toBe(
      '…wenn die Ware unbenutzt ist, und die Erstattung erfolgt auf das Konto, mit dem Sie bezahlt haben…',
    );
    const french =
      "Vous pouvez modifier l'adresse de livraison tant que la commande n'est pas expédiée mais une fois le " +
      'colis remis au transporteur la modification doit être demandée directement au transporteur qui ' +
      'facture parfois des frais supplémentaires pour ce service.';
    const fr = shortenSentence(french, new Set(terms('Qui facture des frais ?', 'fr')), 'fr', 60);
    expect(fr).toBe('…qui facture parfois des frais supplémentaires pour ce service.');
  });
});

describe('sentence splitting', () => {
  it('does not split after abbreviations, initials or inside decimals and versions', () => {
    expect(
      splitSentences(
        'Dr. Smith paid 3.50 EUR, e.g. for item No. 5. It works. The U.S. office opens at 9 a.m. every day. ' +
          'J. Smith wrote version 2.1.3 of the app.',
      ),
    ).toEqual([
      'Dr. Smith paid 3.50 EUR, e.g. for item No. 5.',
      'It works.',
      'The U.S. office opens at 9 a.m. every day.',
      'J. Smith wrote version 2.1.3 of the app.',
    ]);
  });

  it('ends a sentence at every line break and after "p.m." before a capital', () => {
    expect(splitSentences('Opening hours\nWe close at 8 p.m. Call us before.')).toEqual([
      'Opening hours',
      'We close at 8 p.m.',
      'Call us before.',
    ]);
  });

  it('keeps German ordinals and "z. B." and French "M." inside the sentence', () => {
    expect(splitSentences('Wir liefern am 3. Mai. Das gilt z. B. für Berlin.', 'de')).toEqual([
      'Wir liefern am 3. Mai.',
      'Das gilt z. B. für Berlin.',
    ]);
    expect(splitSentences('M. Dupont arrive. Il part.', 'fr')).toEqual(['M. Dupont arrive.', 'Il part.']);
  });
});

describe('terms', () => {
  it('lower-cases, folds accents, drops stop words and meets singular and plural or -ing/-ed forms', () => {
    expect(terms('How do I reset my Passwords?', 'en')).toEqual(['reset', 'password']);
    expect(terms('shipping shipped ships', 'en')).toEqual(['ship', 'ship', 'ship']);
    expect(terms('activation activate', 'en')).toEqual(['activat', 'activat']);
    expect(terms('Wie lade ich Rechnungen herunter?', 'de')).toEqual(['lade', 'rechnung', 'herunt']);
    expect(terms('Où est ma commande expédiée ?', 'fr')).toEqual(['command', 'expedie']);
  });
});
