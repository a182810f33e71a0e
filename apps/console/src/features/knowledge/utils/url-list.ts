import { CreateSourceBodySchema } from '@omnibot/contracts';

export interface UrlListResult {
  /** Valid addresses in the order given, each once. */
  urls: string[];
  /** Lines that hold no valid address (counting from 1), and why. */
  problems: { line: number; message: string }[];
  /** How many lines repeated an address already listed. */
  duplicates: number;
}

/**
 * Reads web addresses typed one per line: blank lines are skipped, each address is checked as a single web page
 * source is, and repeats (ignoring a trailing slash of the bare host and the case of the host) are dropped.
 */
export function parseUrlList(text: string): UrlListResult {
  const result: UrlListResult = { urls: [], problems: [], duplicates: 0 };
  const seen = new Set<string>();
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const value = raw.trim();
    if (!value) return;
    const parsed = CreateSourceBodySchema.safeParse({ type: 'url', url: value });
    if (!parsed.success) {
      result.problems.push({ line: index + 1, message: parsed.error.issues[0]?.message ?? 'Not an address' });
      return;
    }
    // URL normalises the host's case and the empty path of a bare host ("https://A.com" -> "https://a.com/").
    const key = new URL(value).href;
    if (seen.has(key)) {
      result.duplicates += 1;
      return;
    }
    seen.add(key);
    result.urls.push(value);
  });
  return result;
}
