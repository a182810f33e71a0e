import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as contracts from '@omnibot/contracts';
import { AUTH_ERROR_CODES, ERROR_CATALOGUE, isErrorCode } from '@omnibot/contracts';
import { describe, expect, it } from 'vitest';
import { createTestApp } from './test/app';

const SRC = path.dirname(fileURLToPath(import.meta.url));
const TEST_ONLY = /(\.test\.ts|\.fixtures\.ts|test-support\.ts|\.suite\.ts)$|^test\//;

/**
 * Code arguments that are not literals, by file: where their values come from is checked elsewhere (the
 * helper's own default and call sites, or the literals of a lookup table). A new dynamic site must be listed.
 */
const DYNAMIC_CODES: Record<string, string[]> = {
  // badRequest(message, code = 'invalid_argument'): its default and every call's literal are checked.
  'lib/errors.ts': ['code'],
  // AUTH_ERROR_CODES entries; better-auth's own refusals are passed on as auth/<its code> (see EXTRA_AUTH_ERRORS).
  'modules/auth/auth.routes.ts': [
    'AUTH_ERROR_CODES[key]',
    "`auth/${code.toLowerCase().replaceAll('_', '-') || 'error'}`",
  ],
  // tus errors: the literals of STATUS_CODES, or an AppError's code.
  'modules/files/files-upload.routes.ts': ['...describeStatus(response.status, text)', 'error.code'],
  // liveAgentError(code): typed as a key of LIVE_AGENT_ERRORS, every one of which is in the catalogue.
  'modules/live-agents/handover.service.ts': ['code'],
  // providerFailure(code, error): typed as 'language/provider-error' | 'tts/provider-error', both in the catalogue.
  'modules/speech/speech.service.ts': ['code'],
  // ParseError(code): the ParseErrorCode literals of its status table are checked.
  'modules/knowledge/ingest/parse-error.ts': ['code'],
  // A bulk item's refusal keeps the code of the AppError it names (raised and checked where it is thrown).
  'modules/knowledge/knowledge.service.ts': ['error.code'],
};

// Files whose errors never answer a request (configuration stops start-up instead).
const NOT_ANSWERED = new Set(['env.ts']);

export interface CodeSite {
  code: string | null;
  expression: string;
  file: string;
  line: number;
}

/** Splits the argument list that starts right after `(` at `start`, minding brackets, strings and templates. */
function argumentsAt(source: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  let quote: string | null = null;
  for (let index = start; index < source.length; index++) {
    const char = source[index] ?? '';
    if (quote) {
      current += char;
      if (char === '\\') current += source[++index] ?? '';
      else if (char === quote) quote = null;
      continue;
    }
    if (char === "'" || char === '"' || char === '`') quote = char;
    else if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) {
      if (depth === 0) {
        if (current.trim()) args.push(current.trim());
        return args;
      }
      depth--;
    } else if (char === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  return args;
}

const lineOf = (source: string, index: number) => source.slice(0, index).split('\n').length;

/**
 * The code an argument expression names: a string literal, a string constant of the contracts, or an
 * AUTH_ERROR_CODES member; null if dynamic.
 */
function resolve(expression: string): string | null {
  const literal = /^(['"])([^'"`$\\]+)\1$/.exec(expression);
  if (literal) return literal[2] ?? null;
  if (/^[A-Z][A-Z0-9_]*$/.test(expression)) {
    const value: unknown = (contracts as Record<string, unknown>)[expression];
    if (typeof value === 'string') return value;
  }
  const constant = /^(\w+)\.code$/.exec(expression);
  if (constant) {
    const value: unknown = (contracts as Record<string, unknown>)[constant[1] ?? ''];
    const code = typeof value === 'object' && value !== null ? (value as { code?: unknown }).code : undefined;
    return typeof code === 'string' ? code : null;
  }
  const member = /^AUTH_ERROR_CODES\.(\w+)$/.exec(expression);
  if (member) {
    const key = member[1] ?? '';
    return Object.hasOwn(AUTH_ERROR_CODES, key)
      ? AUTH_ERROR_CODES[key as keyof typeof AUTH_ERROR_CODES]
      : `AUTH_ERROR_CODES.${key} (no such member)`;
  }
  return null;
}

/** Every place a source file names an error code the server answers with. */
export function codeSites(file: string, source: string): CodeSite[] {
  const sites: CodeSite[] = [];
  const add = (index: number, expression: string, code = resolve(expression)) =>
    sites.push({ code, expression, file, line: lineOf(source, index) });

  // new AppError(status, code, ...) and subclasses' super(status, code, ...).
  const isSubclass = /extends AppError\b/.test(source);
  for (const match of source.matchAll(/\bnew AppError\(|\bsuper\(/g)) {
    if (match[0] === 'super(' && !isSubclass) continue;
    const args = argumentsAt(source, match.index + match[0].length);
    add(match.index, args[1] ?? '');
  }
  // Helpers with a default code, e.g. `badRequest = (message, code = 'invalid_argument')`, and their calls.
  for (const match of source.matchAll(/\b(\w+) = \([^)]*\bcode = '([^']+)'/g)) {
    add(match.index, `'${match[2]}'`);
  }
  for (const match of source.matchAll(/\b(badRequest|conflict)\(/g)) {
    if (source.slice(Math.max(0, match.index - 6), match.index).includes('const')) continue;
    const args = argumentsAt(source, match.index + match[0].length);
    if (args.length >= 2) add(match.index, args[1] ?? '');
  }
  // Bodies written by hand: `{ code: 'x', message }` and jsonBody(code, message).
  for (const match of source.matchAll(/\bcode:\s*'([a-z][a-z0-9_/-]*)'/g)) add(match.index, `'${match[1]}'`);
  for (const match of source.matchAll(/\bjsonBody\(/g)) {
    const args = argumentsAt(source, match.index + match[0].length);
    if (args.length >= 2) add(match.index, args[0] ?? '');
  }
  // Codes chosen by a function: `return 'x'` inside clientCode (plugins/errors.ts).
  const clientCode = /function clientCode[\s\S]*?\n\}/.exec(source);
  for (const match of clientCode?.[0].matchAll(/return '([^']+)'/g) ?? []) {
    add((clientCode?.index ?? 0) + match.index, `'${match[1]}'`);
  }
  // Any other auth/… or storage/… literal (lookup tables such as tus' STATUS_CODES).
  for (const match of source.matchAll(/'((?:auth|storage)\/[a-z0-9-]+)'/g)) add(match.index, match[0]);
  return sites;
}

/** The problems of a list of sites: unknown codes and unlisted dynamic expressions, each with its place. */
export function catalogueProblems(sites: CodeSite[]): string[] {
  return sites.flatMap(({ code, expression, file, line }) => {
    const where = `apps/server/src/${file}:${line}`;
    if (code === null) {
      return DYNAMIC_CODES[file]?.includes(expression)
        ? []
        : [
            `${where} raises a code this test cannot resolve (${expression || 'nothing'}): use a literal, a contracts constant or an AUTH_ERROR_CODES member, or list it in DYNAMIC_CODES`,
          ];
    }
    return isErrorCode(code)
      ? []
      : [
          `${where} raises '${code}', which is missing from ERROR_CATALOGUE in packages/contracts/src/errors.ts`,
        ];
  });
}

function serverSources(): Array<{ file: string; source: string }> {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !TEST_ONLY.test(file) && !NOT_ANSWERED.has(file))
    .map((file) => ({ file, source: readFileSync(path.join(SRC, file), 'utf8') }));
}

describe('error catalogue', () => {
  const sites = serverSources().flatMap(({ file, source }) => codeSites(file, source));

  it('finds the codes the server raises (the scan is not blind)', () => {
    expect(sites.length).toBeGreaterThan(60);
    const found = (code: string, file: string) =>
      sites.some((site) => site.code === code && site.file === file);
    expect(found('last_administrator', 'modules/accounts/users.service.ts')).toBe(true);
    expect(found('domain_taken', 'modules/accounts/accounts.service.ts')).toBe(true);
    expect(found('auth/no-profile', 'modules/auth/principal.ts')).toBe(true);
    expect(found('auth/too-many-requests', 'modules/auth/rate-limits.ts')).toBe(true);
    expect(found('invalid_json', 'plugins/errors.ts')).toBe(true);
    expect(found('invalid_argument', 'app.ts')).toBe(true);
    expect(found('invalid_argument', 'lib/errors.ts')).toBe(true);
    expect(found('storage/file-too-large', 'modules/files/files-upload.routes.ts')).toBe(true);
    expect(found('origin_not_allowed', 'modules/auth/origin-check.ts')).toBe(true);
    // A code named by a constant of the contracts.
    expect(found('secret/endpoint-changed', 'lib/secret-endpoint.ts')).toBe(true);
  });

  it('has every code the server raises, with a message', () => {
    expect(catalogueProblems(sites)).toEqual([]);
    for (const [code, message] of Object.entries(ERROR_CATALOGUE)) expect(message, code).toMatch(/\S/);
  });

  it('names the missing code and where it is raised', () => {
    const source = [
      "import { AppError } from '../lib/errors';",
      "export const a = () => new AppError(409, 'brand_new_code', 'x');",
      'export const b = (code: string) =>',
      '  new AppError(400, code, "y");',
      "export const c = { code: 'another_new_code', message: 'z' };",
    ].join('\n');
    expect(catalogueProblems(codeSites('modules/x/x.service.ts', source))).toEqual([
      "apps/server/src/modules/x/x.service.ts:2 raises 'brand_new_code', which is missing from ERROR_CATALOGUE in packages/contracts/src/errors.ts",
      'apps/server/src/modules/x/x.service.ts:4 raises a code this test cannot resolve (code): use a literal, a contracts constant or an AUTH_ERROR_CODES member, or list it in DYNAMIC_CODES',
      "apps/server/src/modules/x/x.service.ts:5 raises 'another_new_code', which is missing from ERROR_CATALOGUE in packages/contracts/src/errors.ts",
    ]);
  });
});

describe('framework errors', () => {
  it('answers the request rate limit with the catalogued too_many_requests and Retry-After', async () => {
    const t = await createTestApp({ skipReady: true });
    try {
      t.app.get(
        '/v1/test-limited',
        { config: { rateLimit: { max: 1, timeWindow: '1 minute' } } },
        async () => ({
          ok: true,
        }),
      );
      await t.app.ready();
      expect((await t.app.inject({ url: '/v1/test-limited' })).statusCode).toBe(200);
      const limited = await t.app.inject({ url: '/v1/test-limited' });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      const body = limited.json<{ code: string }>();
      expect(body.code).toBe('too_many_requests');
      expect(isErrorCode(body.code)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
