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
