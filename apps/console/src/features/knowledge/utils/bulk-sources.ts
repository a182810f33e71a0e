/** "1 pair", "3 pairs". */
export const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Whether web pages are crawled from each address, and how far; the numbers as their inputs hold them. */
export interface Crawl {
  enabled: boolean;
  depth: number | string;
  max_pages: number | string;
}
