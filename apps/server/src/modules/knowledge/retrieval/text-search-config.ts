import type { TextSearchConfig } from '../../../db/schema';

const CONFIG_BY_LANGUAGE: Record<string, TextSearchConfig> = {
  en: 'english',
  english: 'english',
  de: 'german',
  german: 'german',
  deutsch: 'german',
  fr: 'french',
  french: 'french',
  français: 'french',
  francais: 'french',
  es: 'spanish',
  spanish: 'spanish',
  español: 'spanish',
  espanol: 'spanish',
  it: 'italian',
  italian: 'italian',
  italiano: 'italian',
  pt: 'portuguese',
  portuguese: 'portuguese',
  português: 'portuguese',
  portugues: 'portuguese',
  nl: 'dutch',
  dutch: 'dutch',
  nederlands: 'dutch',
};

/** The PostgreSQL text-search configuration for a language name or code ("en", "en-GB", "German"); simple for others. */
export function textSearchConfigFor(language: string): TextSearchConfig {
  const key = language.trim().toLowerCase();
  return CONFIG_BY_LANGUAGE[key] ?? CONFIG_BY_LANGUAGE[key.split(/[-_]/)[0] ?? ''] ?? 'simple';
}
