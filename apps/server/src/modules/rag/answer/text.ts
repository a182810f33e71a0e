/**
 * Text helpers for answering: sentence splitting and the tokens a question and a sentence are compared by
 * (lower-cased, accents folded, stop words dropped, lightly stemmed). Pure and deterministic.
 */

const STOP_WORDS: Record<string, string> = {
  en: `a about above after again all also am an and any are as at be been before being below between both but by
    can cannot could did do does doing done down during each either else ever every few for from further get gets
    got had has have having he her here hers him his how i if in into is it its itself just let me might more most
    must my myself no nor not now of off on once only or other our ours out over own please same shall she should
    so some such than that the their theirs them then there these they this those through to too under until up
    upon us very via was we were what when where whether which while who whom whose why will with within without
    would yes yet you your yours`,
  de: `aber alle allem allen aller alles als also am an ander andere anderen auch auf aus bei bin bis bist da damit
    dann das dass dein deine dem den denn der des dich die dies diese diesem diesen dieser dieses dir doch dort du
    durch ein eine einem einen einer eines er es etwas euch euer fur gegen hab habe haben hat hatte ich ihm ihn
    ihnen ihr ihre ihrem ihren im in ist ja jede jedem jeden jeder jedes kann kein keine konnen mein meine meinem
    meinen meiner mich mir mit muss nach nicht noch nun nur ob oder ohne sehr sein seine sich sie sind so soll
    sollte um und uns unser unter vom von vor war waren warum was weil welche welchem welchen welcher wenn wer
    werde werden wie wieder will wir wird wo zu zum zur uber`,
  fr: `a au aux avec ce ces cet cette comment dans de des du elle elles en est et etre eu faire fait il ils je la
    le les leur leurs lui ma mais me meme mes moi mon ne nos notre nous on ont ou par pas peut peux plus pour
    pourquoi puis puisje quand que quel quelle quelles quels qui sa sans se ses si son sont sur ta te tes toi ton
    tu un une vos votre vous y c d j l m n qu s t`,
  es: `a al algo como con cual cuales cuando de del donde el ella ellas ellos en es esa ese eso esta estan este esto
    fue ha hay la las le les lo los mas me mi mis muy ni no nos o para pero por porque puedo puede que quien se
    ser si sin sobre su sus te tengo tiene tu tus un una uno unos y ya yo`,
  it: `a ad al alla alle allo ai agli anche che chi come con cosa cui da dal dalla dei del della delle di dove e
    ed gli ha hanno ho i il in io la le lei lo loro ma mi mio mia nel nella noi non o per perche piu posso puo
    quale quando quello questa questo se si sono su sua suo tu un una uno vi voi`,
  pt: `a ao aos as com como da das de do dos e ela ele eles em entre era esta este eu foi ha isso isto ja la mais
    mas me meu minha na nas nao no nos o onde os ou para pela pelo por porque posso pode qual quando que quem se
    sem ser seu sua sao tem um uma voce`,
  nl: `aan al als ben bij dan dat de der deze die dit doe doen door dus een en er ge geen had heb hebben heeft hem
    het hier hij hoe hun ik in is ja je jij jou jouw kan kon kunnen maar me meer men met mij mijn moet na naar
    niet nog nu of om onder ons ook op over te tot u uit uw van veel voor waar waarom wat want was wie wij wil
    word wordt zal ze zij zijn zo zou`,
};

const stopSets = new Map<string, Set<string>>(
  Object.entries(STOP_WORDS).map(([language, words]) => [
    language,
    new Set(words.split(/\s+/).filter(Boolean)),
  ]),
);

const LANGUAGE_BY_NAME: Record<string, string> = {
  english: 'en',
  german: 'de',
  french: 'fr',
  spanish: 'es',
  italian: 'it',
  portuguese: 'pt',
  dutch: 'nl',
};

/** The two-letter language the helpers use: "de-CH" and "German" both give "de"; unknown ones keep their code. */
export function baseLanguage(language: string | undefined): string {
  // Already a two-letter code, as the helpers pass it on to each other.
  if (language && language.length === 2 && /^[a-z]{2}$/.test(language)) return language;
  const value = (language ?? 'en').trim().toLowerCase();
  return LANGUAGE_BY_NAME[value] ?? (value.split(/[-_]/)[0] || 'en');
}

/** Whether every character is ASCII: such text has no marks and NFKD leaves it as it is. */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Lower-cased with accents and other marks removed (NFKD); ASCII text is only lower-cased, with the same result. */
export const fold = (text: string) =>
  isAscii(text)
    ? text.toLowerCase()
    : text
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase();

function stemEnglish(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !'sui'.includes(w.charAt(w.length - 2))) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    const rest = w.slice(0, -suffix.length);
    if (w.endsWith(suffix) && rest.length >= 3 && /[aeiouy]/.test(rest)) {
      w = rest;
      break;
    }
  }
  if (w.endsWith('ation') && w.length > 7) w = w.slice(0, -3);
  for (const suffix of ['ment', 'ness', 'ly']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  // A doubled final consonant counts once: "ship", "shipped" and "shipping" meet, so do "bill" and "billing".
  const last = w.charAt(w.length - 1);
  if (w.length > 3 && last === w.charAt(w.length - 2) && !'aeiou'.includes(last)) w = w.slice(0, -1);
  return w;
}

// Other languages: plural and final-vowel endings only, enough to match singular and plural forms.
const LIGHT_SUFFIXES: Record<string, string[]> = {
  de: ['ern', 'en', 'er', 'es', 'e', 'n', 's'],
  fr: ['es', 's', 'x', 'e'],
  es: ['es', 's', 'a', 'o', 'e'],
  it: ['i', 'e', 'a', 'o'],
  pt: ['es', 's', 'a', 'o', 'e'],
  nl: ['en', 's', 'e'],
};

function stem(word: string, language: string): string {
  if (language === 'en') return stemEnglish(word);
  const suffixes = LIGHT_SUFFIXES[language];
  if (!suffixes) return word;
  for (const suffix of suffixes) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) return word.slice(0, -suffix.length);
  }
  return word;
}

const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese',
  nl: 'Dutch',
};

/** The English name of a language given by code or name ("de-CH" and "german" give "German"); unknown ones as written. */
export function languageName(language: string): string {
  return LANGUAGE_NAMES[baseLanguage(language)] ?? language.trim();
}

/**
 * The language of a short text by its stop words (the one whose list holds the most of its words), or null when
 * no list holds at least one of them or two languages tie.
 */
export function guessLanguage(text: string): string | null {
  const words = Array.from(fold(text).matchAll(/[\p{L}]+/gu), (match) => match[0]);
  let best: string | null = null;
  let bestCount = 0;
  let tied = false;
  for (const [language, stops] of stopSets) {
    const hits = words.filter((word) => stops.has(word)).length;
    if (hits > bestCount) {
      best = language;
      bestCount = hits;
      tied = false;
    } else if (hits === bestCount && hits > 0) {
      tied = true;
    }
  }
  return bestCount > 0 && !tied ? best : null;
}

/** What a word stands for among the content terms: its stem, or null for a stop word or a lone letter. */
function termOf(word: string, language: string, stops: Set<string> | undefined): string | null {
  if (stops?.has(word)) return null;
  if (word.length === 1 && !/\p{N}/u.test(word)) return null;
  return stem(word, language);
}

/** Words seen per language and the term each stands for; cleared when full, so it never grows past its bound. */
const MAX_KNOWN_WORDS = 50_000;
const knownWords = new Map<string, Map<string, string | null>>();

/** The table of words seen in `language` (a base code), emptied when full. */
function knownWordsOf(language: string): Map<string, string | null> {
  let known = knownWords.get(language);
  if (!known || known.size >= MAX_KNOWN_WORDS) {
    known = new Map();
    knownWords.set(language, known);
  }
  return known;
}

function pushTerm(
  out: string[],
  word: string,
  language: string,
  known: Map<string, string | null>,
  stops: Set<string> | undefined,
) {
  let term = known.get(word);
  if (term === undefined) {
    term = termOf(word, language, stops);
    known.set(word, term);
  }
  if (term !== null) out.push(term);
}

/** The content terms of a text: lower-cased words of Unicode letters and digits, stop words dropped, stemmed. */
export function terms(text: string, language: string): string[] {
  const lang = baseLanguage(language);
  const stops = stopSets.get(lang);
  const known = knownWordsOf(lang);
  const out: string[] = [];
  const folded = fold(text);
  // In ASCII text the letters and digits are [a-z0-9] once lower-cased.
  const word = isAscii(folded) ? /[a-z0-9]+/g : /[\p{L}\p{N}]+/gu;
  for (let match = word.exec(folded); match; match = word.exec(folded)) {
    pushTerm(out, match[0], lang, known, stops);
  }
  return out;
}

/**
 * The content terms of a text already folded to its words separated by single spaces (as the extractive answer
 * compares sentences): the same as terms() of the original text, without folding and scanning it again.
 */
export function termsOfWords(words: string, language: string): string[] {
  const lang = baseLanguage(language);
  const stops = stopSets.get(lang);
  const known = knownWordsOf(lang);
  const out: string[] = [];
  for (const word of words.split(' ')) if (word) pushTerm(out, word, lang, known, stops);
  return out;
}

// Words that end with a full stop without ending the sentence, lower-case and without that last stop.
const ABBREVIATIONS = new Set(
  `dr mr mrs ms prof st sr jr mt no nos nr vs etc e.g i.e cf approx appt dept est fig figs vol inc ltd co corp
   jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun min max incl excl ref art abs
   p pp ca z.b d.h u.a bzw usw ggf evtl inkl zzgl vgl mme mlle m ex p.ex cie sr sra dra ud uds pag ecc sig
   dott sig.ra blz bijv enz mevr dhr`
    .split(/\s+/)
    .filter(Boolean),
);

function endsWithAbbreviation(segment: string, language: string): boolean {
  const last = /(?:^|[\s(])([\p{L}.]+)\.$/u.exec(segment)?.[1];
  if (last !== undefined) {
    const lower = last.toLowerCase();
    if (ABBREVIATIONS.has(lower)) return true;
    // A single letter ("J. Smith", "z. B.") or a dotted capital acronym ("U.S."); "p.m." often ends a sentence.
    if (/^\p{L}$/u.test(last) || /^(?:\p{Lu}\.)+\p{Lu}$/u.test(last)) return true;
  }
  // German, Dutch and others write ordinals as "3. Mai".
  return language !== 'en' && /(?:^|\s)\d{1,2}\.$/.test(segment);
}

const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(language: string): Intl.Segmenter {
  let segmenter = segmenters.get(language);
  if (!segmenter) {
    try {
      segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
    } catch {
      segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    }
    segmenters.set(language, segmenter);
  }
  return segmenter;
}

/**
 * Splits text into sentences: a line break always ends a sentence, and the segmenter's pieces are joined again
 * after an abbreviation, an initial, or before a piece that starts in lower case. The whole text goes through the
 * segmenter at once: it always breaks after a line break, and a piece holding one closes its line.
 */
export function splitSentences(text: string, language = 'en'): string[] {
  const lang = baseLanguage(language);
  const sentences: string[] = [];
  let current = '';
  for (const { segment } of segmenterFor(lang).segment(text)) {
    const piece = segment.trim();
    if (piece) {
      if (current && (endsWithAbbreviation(current, lang) || /^[\p{Ll},;:)]/u.test(piece))) {
        current = `${current} ${piece}`;
      } else {
        if (current) sentences.push(current);
        current = piece;
      }
    }
    if (current && segment.includes('\n')) {
      sentences.push(current);
      current = '';
    }
  }
  if (current) sentences.push(current);
  return sentences;
}
