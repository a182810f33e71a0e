import { parseHTML } from 'linkedom';
import type { CrawlSettings } from '../../db/schema';
import {
  checkUrl,
  FetchError,
  type GuardedFetch,
  type GuardedResponse,
} from '../../lib/guarded-http/guarded-fetch';
import { parse } from './ingest/parse';
import type { ParsedDocument } from './ingest/types';

const DEFAULT_CRAWL_DEPTH = 1;
const DEFAULT_CRAWL_MAX_PAGES = 50;
/** A sitemap is read up to this many pages. */
const SITEMAP_MAX_PAGES = 500;

export interface CrawledPage {
  url: string;
  document: ParsedDocument;
}

interface RobotsRules {
  allow: string[];
  disallow: string[];
}

/** The Allow and Disallow prefixes of robots.txt's groups for every agent (`User-agent: *`). */
function parseRobots(text: string): RobotsRules {
  const rules: RobotsRules = { allow: [], disallow: [] };
  let agents: string[] = [];
  let inRules = false;
  for (const raw of text.split(/\r?\n/u)) {
    const line = raw.replace(/#.*$/u, '').trim();
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (inRules) agents = [];
      inRules = false;
      agents.push(value.toLowerCase());
    } else if (field === 'allow' || field === 'disallow') {
      inRules = true;
      if (!agents.includes('*') || value === '') continue;
      rules[field].push(value);
    }
  }
  return rules;
}

/** The longest matching prefix decides; Allow wins a tie; no match allows. */
function robotsAllow(rules: RobotsRules, path: string): boolean {
  const longest = (prefixes: string[]) =>
    Math.max(-1, ...prefixes.filter((prefix) => path.startsWith(prefix)).map((prefix) => prefix.length));
  return longest(rules.allow) >= longest(rules.disallow);
}

const withoutFragment = (url: URL) => {
  const copy = new URL(url);
  copy.hash = '';
  return copy.toString();
};

async function robotsOf(fetch: GuardedFetch, origin: string): Promise<RobotsRules> {
  try {
    const response = await fetch(`${origin}/robots.txt`);
    return parseRobots(response.body.toString('utf8'));
  } catch {
    // No readable robots.txt: everything may be read.
    return { allow: [], disallow: [] };
  }
}

/** The few DOM members the link reader uses (linkedom's document provides them). */
interface AnchorDocument {
  querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null }>;
}

function linksOf(html: string, base: string): URL[] {
  const { document } = parseHTML(html) as unknown as { document: AnchorDocument };
  const links: URL[] = [];
  for (const anchor of document.querySelectorAll('a[href]')) {
    const href = anchor.getAttribute('href');
    if (href && URL.canParse(href, base)) links.push(new URL(href, base));
  }
  return links;
}

/**
 * Reads a page and the pages it links to on the same site, breadth first, up to `depth` links away and
 * `maxPages` pages; robots.txt and the include/exclude path prefixes decide which linked pages are read.
 * The start page must be readable; a linked page that is not is left out.
 */
export async function crawlSite(
  fetch: GuardedFetch,
  start: string,
  settings: CrawlSettings,
  checkpoint: () => void = () => undefined,
): Promise<CrawledPage[]> {
  const depth = settings.depth ?? DEFAULT_CRAWL_DEPTH;
  const maxPages = settings.maxPages ?? DEFAULT_CRAWL_MAX_PAGES;
  // The guarded checks see the address as it was given, before anything here normalises it.
  const first = checkUrl(start);
  const origin = first.origin;
  const robots = await robotsOf(fetch, origin);
  const wanted = (url: URL) =>
    url.origin === origin &&
    robotsAllow(robots, url.pathname) &&
    (!settings.include?.length || settings.include.some((prefix) => url.pathname.startsWith(prefix))) &&
    !settings.exclude?.some((prefix) => url.pathname.startsWith(prefix));

  const pages: CrawledPage[] = [];
  const seen = new Set([withoutFragment(first)]);
  const queue: Array<{ url: string; depth: number }> = [{ url: withoutFragment(first), depth: 0 }];
  while (queue.length > 0 && pages.length < maxPages) {
    checkpoint();
    const next = queue.shift();
    if (!next) break;
    let response;
    let document: ParsedDocument;
    try {
      response = await fetch(next.url);
      document = await parse(response.body, {
        contentType: response.contentType,
        filename: new URL(response.url).pathname.split('/').at(-1) ?? null,
      });
    } catch (error) {
      if (next.depth === 0) throw error;
      continue;
    }
    pages.push({ url: response.url, document });
    if (next.depth >= depth || document.format !== 'html') continue;
    for (const link of linksOf(response.body.toString('utf8'), response.url)) {
      const key = withoutFragment(link);
      if (seen.has(key) || !wanted(link)) continue;
      seen.add(key);
      queue.push({ url: key, depth: next.depth + 1 });
    }
  }
  return pages;
}

/** The same-site page addresses a sitemap's text lists (`<loc>` elements), in order, at most SITEMAP_MAX_PAGES. */
export function sitemapLocations(text: string, sitemapUrl: string, finalUrl: string): string[] {
  const origin = new URL(finalUrl).origin;
  const urls: string[] = [];
  for (const match of text.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/giu)) {
    const loc = (match[1] ?? '').replaceAll('&amp;', '&');
    if (!URL.canParse(loc) || new URL(loc).origin !== origin || urls.includes(loc)) continue;
    urls.push(loc);
    if (urls.length >= SITEMAP_MAX_PAGES) break;
  }
  if (urls.length === 0) {
    throw new FetchError('fetch/bad-response', 'The sitemap lists no pages of its own site.', {
      url: sitemapUrl,
    });
  }
  return urls;
}

/** Parses a fetched page, naming it by the last part of its final address. */
export function parsePage(response: GuardedResponse): Promise<ParsedDocument> {
  return parse(response.body, {
    contentType: response.contentType,
    filename: new URL(response.url).pathname.split('/').at(-1) ?? null,
  });
}
