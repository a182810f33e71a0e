const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** A visitor's country as people read it: `FR` -> `France (FR)`; the code alone when the browser does not know it. */
export function countryLabel(code: string): string {
  try {
    const name = regionNames.of(code);
    return name === undefined || name === code ? code : `${name} (${code})`;
  } catch {
    return code;
  }
}
