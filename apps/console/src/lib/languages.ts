/** Language codes offered in the pickers; a stored code that is not among them is offered too. */
const LANGUAGES = [
  ['en', 'English'],
  ['fr', 'French'],
  ['de', 'German'],
  ['es', 'Spanish'],
  ['it', 'Italian'],
  ['pt', 'Portuguese'],
  ['pt-BR', 'Portuguese (Brazil)'],
  ['nl', 'Dutch'],
  ['pl', 'Polish'],
  ['sv', 'Swedish'],
  ['da', 'Danish'],
  ['no', 'Norwegian'],
  ['fi', 'Finnish'],
  ['cs', 'Czech'],
  ['tr', 'Turkish'],
  ['ar', 'Arabic'],
  ['hi', 'Hindi'],
  ['ja', 'Japanese'],
  ['ko', 'Korean'],
  ['zh', 'Chinese'],
] as const;

export function languageOptions(current: string) {
  const options = LANGUAGES.map(([code, name]) => ({ value: code, label: `${name} (${code})` }));
  return current === '' || options.some((option) => option.value === current)
    ? options
    : [...options, { value: current, label: current }];
}

const names = new Map<string, string>(LANGUAGES);

/** A language's name in English ("French" for fr); the code itself when the browser knows no name for it. */
export function languageName(code: string): string {
  const known = names.get(code);
  if (known !== undefined) return known;
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
