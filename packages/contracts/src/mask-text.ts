// Masking without zod, so the browser widget can mask text without carrying the schema library.
import {
  MASK_PRESET_APPLY_ORDER,
  MASK_PRESETS,
  type MaskPresetId,
  PIN_PATTERN,
  presetOf,
  SSN_PATTERN,
} from './mask-presets';

export * from './mask-presets';
export const MASK_PATTERN_NAME_MAX = 40;
export const MASK_PATTERN_MAX = 200;
export const MASK_PATTERNS_MAX = 20;
export const MASK_CHARACTER_DEFAULT = '*';
/** Quantifiers repeating more than this count as unbounded. */
const MASK_REPEAT_MAX = 20;
/** More unbounded quantifiers than this make matching polynomial of too high a degree on a long message. */
const MASK_UNBOUNDED_QUANTIFIERS_MAX = 2;
const COMPILED_CACHE_MAX = 500;

/** A named regular expression whose matches are masked, or one of the presets (see MASK_PRESETS). */
export interface MaskPattern {
  name: string;
  regExpression: string;
  /** A preset is matched by the product's own expression and checks; its regExpression is only shown. */
  preset?: MaskPresetId | undefined;
}

export const DEFAULT_MASK_PATTERNS: readonly MaskPattern[] = [
  { name: 'PIN', regExpression: PIN_PATTERN, preset: 'pin' },
  { name: 'SSN', regExpression: SSN_PATTERN, preset: 'ssn' },
];

/** A preset as a pattern of the configuration. */
export const presetPattern = (id: MaskPresetId): MaskPattern => ({
  name: MASK_PRESETS[id].name,
  regExpression: MASK_PRESETS[id].regExpression,
  preset: id,
});

// Every pattern is compiled with the `u` flag so the widget and the server read the same syntax strictly.
const MASK_FLAGS = 'gu';

const QUANTIFIER = /^(?:([*+?])|\{(\d+)\}|\{(\d+),(\d*)\})/;

/** Whether the quantifier at the start of `rest` matches a variable number of times (`*`, `+`, `?`, `{n,}`, `{n,m}`). */
function variableQuantifierAt(rest: string): boolean {
  const match = QUANTIFIER.exec(rest);
  if (match === null) return false;
  if (match[1] !== undefined) return true;
  if (match[2] !== undefined) return false;
  return match[4] === '' || match[4] !== match[3];
}

/** Whether the quantifier at the start of `rest` may repeat its atom more than once. */
function repeatingQuantifierAt(rest: string): boolean {
  const match = QUANTIFIER.exec(rest);
  if (match === null) return false;
  if (match[1] !== undefined) return match[1] !== '?';
  if (match[2] !== undefined) return Number(match[2]) > 1;
  return match[4] === '' || Number(match[4]) > 1;
}

/** Whether the quantifier at the start of `rest` is unbounded or allows more than MASK_REPEAT_MAX repeats. */
function longQuantifierAt(rest: string): boolean {
  const match = QUANTIFIER.exec(rest);
  if (match === null) return false;
  if (match[1] !== undefined) return match[1] !== '?';
  if (match[2] !== undefined) return Number(match[2]) > MASK_REPEAT_MAX;
  return match[4] === '' || Number(match[4]) > MASK_REPEAT_MAX;
}

const GROUP_PREFIX = /^\((?:\?(?::|=|!|<=|<!|<[A-Za-z_][A-Za-z0-9_]*>))?/;

/**
 * Why a regular expression is unsafe to run on visitor text, or null when it is safe: too long, does not compile,
 * matches the empty string, uses back-references, repeats a group that itself repeats or alternates (the shapes
 * behind catastrophic backtracking, such as `(a+)+`, `(a*)*` or `(a|aa)+`), or chains more than
 * MASK_UNBOUNDED_QUANTIFIERS_MAX unbounded quantifiers (such as `\d+\d+\d+x`, polynomial on long text).
 */
export function regexSafetyProblem(source: string): string | null {
  if (source.length === 0) return 'The pattern is empty.';
  if (source.length > MASK_PATTERN_MAX) return `The pattern is longer than ${MASK_PATTERN_MAX} characters.`;
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, 'u');
  } catch (error) {
    return `The pattern is not a valid regular expression: ${(error as Error).message}`;
  }
  if (compiled.test('')) return 'The pattern matches empty text, so it would mask nothing useful.';
  if (/\\[1-9]|\\k</.test(source)) return 'Back-references are not allowed in a mask pattern.';

  // For each open group: whether it holds a repeating quantifier or an alternation.
  const groups: { repeats: boolean; alternates: boolean }[] = [];
  let unbounded = 0;
  let index = 0;
  while (index < source.length) {
    const char = source[index];
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (char === '[') {
      index += 1;
      while (index < source.length && source[index] !== ']') index += source[index] === '\\' ? 2 : 1;
      index += 1;
      continue;
    }
    if (char === '(') {
      groups.push({ repeats: false, alternates: false });
      index += GROUP_PREFIX.exec(source.slice(index))?.[0].length ?? 1;
      continue;
    }
    const current = groups.at(-1);
    if (char === '|') {
      if (current !== undefined) current.alternates = true;
      index += 1;
      continue;
    }
    if (char === ')') {
      const closed = groups.pop();
      index += 1;
      if (closed !== undefined && repeatingQuantifierAt(source.slice(index))) {
        if (closed.repeats)
          return 'Nested quantifiers such as (a+)+ can take exponential time and are not allowed.';
        if (closed.alternates)
          return 'A repeated alternation such as (a|b)+ can take exponential time and is not allowed.';
      }
      const parent = groups.at(-1);
      if (
        parent !== undefined &&
        closed !== undefined &&
        (closed.repeats || variableQuantifierAt(source.slice(index)))
      ) {
        parent.repeats = true;
      }
      continue;
    }
    if (current !== undefined && variableQuantifierAt(source.slice(index))) current.repeats = true;
    if (longQuantifierAt(source.slice(index))) unbounded += 1;
    if (unbounded > MASK_UNBOUNDED_QUANTIFIERS_MAX) {
      return `At most ${MASK_UNBOUNDED_QUANTIFIERS_MAX} unbounded quantifiers (+, *, {n,} or more than ${MASK_REPEAT_MAX} repeats) are allowed.`;
    }
    index += 1;
  }
  return null;
}

const compiledPatterns = new Map<string, RegExp>();

function compileMaskPattern(source: string): RegExp | null {
  const cached = compiledPatterns.get(source);
  if (cached !== undefined) return cached;
  if (regexSafetyProblem(source) !== null) return null;
  const compiled = new RegExp(source, MASK_FLAGS);
  if (compiledPatterns.size >= COMPILED_CACHE_MAX) compiledPatterns.clear();
  compiledPatterns.set(source, compiled);
  return compiled;
}

const compiledPresets = new Map<MaskPresetId, RegExp>();

function compilePreset(id: MaskPresetId): RegExp {
  let compiled = compiledPresets.get(id);
  if (compiled === undefined) {
    compiled = new RegExp(MASK_PRESETS[id].regExpression, MASK_FLAGS);
    compiledPresets.set(id, compiled);
  }
  return compiled;
}

/**
 * Replaces every match of each pattern with a run of `maskCharacter` as long as the match: the presets first, the
 * most specific first (e-mail, IBAN, card, phone, SSN, PIN) and only matches their checks accept, then the other
 * patterns in order. Used by the widget before a message leaves the browser and by the server before it stores or
 * forwards one; a pattern that is not safe (see regexSafetyProblem) is skipped rather than run.
 */
export function maskText(
  text: string,
  patterns: readonly MaskPattern[],
  maskCharacter: string = MASK_CHARACTER_DEFAULT,
): string {
  const hide = (match: string) => maskCharacter.repeat([...match].length);
  const presets = new Set<MaskPresetId>();
  const custom: MaskPattern[] = [];
  for (const pattern of patterns) {
    const preset = presetOf(pattern);
    if (preset === null) custom.push(pattern);
    else presets.add(preset.id);
  }
  let masked = text;
  for (const id of MASK_PRESET_APPLY_ORDER) {
    if (!presets.has(id)) continue;
    const compiled = compilePreset(id);
    const accepts = MASK_PRESETS[id].accepts;
    compiled.lastIndex = 0;
    masked = masked.replace(compiled, (match) =>
      accepts === undefined || accepts(match) ? hide(match) : match,
    );
  }
  for (const pattern of custom) {
    const compiled = compileMaskPattern(pattern.regExpression);
    if (compiled === null) continue;
    compiled.lastIndex = 0;
    masked = masked.replace(compiled, hide);
  }
  return masked;
}
