import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rowsOf } from '../db/client';
import { routeTable } from '../modules/accounts/accounts.fixtures';
import type { TestApp } from './app';

/*
 * The walk shared by the authorisation-matrix tests. A test keeps its own principals (the columns of its
 * expected statuses), its route table and its expectations; this module finds the routes the server serves,
 * fails when a served route has no row or a row names no route, walks every principal through every route,
 * and judges refusals and leaks the same way everywhere.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route of the server: method, path with parameters as `:p`, and `key`, the two joined by a space. */
export interface ServedRoute {
  method: Method;
  url: string;
  key: string;
}

/** A JSON body as an object, to read its fields. */
export const obj = (body: unknown) => body as Record<string, unknown>;

/** The ids of the `items` of a list body. */
export const itemIds = (body: unknown) =>
  ((obj(body).items as Array<{ id: string }> | undefined) ?? []).map((item) => item.id);

/** Every string anywhere in a JSON value. */
export function stringsIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}

/** A path lies under one of `prefixes` when it is the prefix or continues it with a slash. */
export const underPrefixes =
  (prefixes: readonly string[], except: readonly string[] = []) =>
  (url: string) =>
    prefixes.some((prefix) => url === prefix || url.startsWith(`${prefix}/`)) && !except.includes(url);

/** The routes of the server's own route table whose path `covered` accepts, in the table's order. */
export function servedRoutes(t: TestApp, covered: (url: string) => boolean): ServedRoute[] {
  return routeTable(t)
    .filter((route) => covered(route.url))
    .map((route) => ({
      method: route.method as Method,
      url: route.url,
      key: `${route.method} ${route.url}`,
    }));
}

/** Fails when a served route has no row in `rows`, or a row names no served route. */
export function expectRowForEveryRoute(served: readonly ServedRoute[], rows: Record<string, unknown>): void {
  const keys = served.map((route) => route.key).sort();
  expect(
    keys.filter((key) => !(key in rows)),
    'served routes without an expectation row',
  ).toEqual([]);
  expect(Object.keys(rows).sort(), 'expectation rows naming no served route').toEqual(keys);
}

const columnsOf = (statuses: string) => statuses.trim().split(/\s+/);

/** Fails when a row of statuses does not hold exactly one column per principal. */
export function expectOneColumnPerPrincipal(
  statusRows: ReadonlyArray<string | undefined>,
  principals: readonly string[],
): void {
  for (const statuses of statusRows) {
    if (statuses !== undefined) expect(columnsOf(statuses), statuses).toHaveLength(principals.length);
  }
}

/** The status a row of statuses (one column per principal) expects of the principal in `column`. */
export const expectedStatus = (statuses: string, column: number) => Number(columnsOf(statuses)[column]);

/** The code of each refusal status outside 400 (a 400 names what it refused: each test lists its codes). */
const REFUSAL_CODES: Readonly<Record<number, string>> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
};

/** A refusal is `{code, message}` and nothing else, its code the one of its status (of `badRequest` for a 400). */
export function isKnownRefusal(status: number, body: unknown, badRequest: readonly string[] = []): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const code = String(obj(body).code);
  const known = status === 400 ? badRequest.includes(code) : code === REFUSAL_CODES[status];
  return Object.keys(body).sort().join() === 'code,message' && known;
}

/** The ids of the rows of `tables` (each with `id` and `tenant_id`) that belong to any tenant but `tenantId`. */
export async function idsOfOtherTenants(
  t: TestApp,
  tables: readonly string[],
  tenantId: string,
): Promise<Set<string>> {
  const union = sql.join(
    tables.map((table) => sql`select id::text as id from ${sql.raw(table)} where tenant_id <> ${tenantId}`),
    sql` union all `,
  );
  return new Set(rowsOf<{ id: string }>(await t.database.db.execute(union)).map((row) => row.id));
}

/** A Basic credential with the key of `credential` and a wrong secret. */
export function withWrongSecret(credential: string): string {
  const [key] = Buffer.from(credential.slice('Basic '.length), 'base64').toString('utf8').split(':');
  return `Basic ${Buffer.from(`${key ?? ''}:not-the-secret-0123456789`).toString('base64')}`;
}

export interface MatrixStep<P extends string, R> {
  principal: P;
  /** The principal's column in the rows of statuses. */
  column: number;
  route: R;
  /** Where the step writes what it found wrong, one line each. */
  wrong: string[];
}

export interface MatrixWalk {
  wrong: string[];
  /** The calls the steps made. */
  attempts: number;
}

/**
 * Every principal (in column order) through every route: `step` makes the calls of one principal on one route,
 * notes what is wrong, and returns how many calls it made.
 */
export async function walkMatrix<P extends string, R>(
  principals: readonly P[],
  routes: readonly R[],
  step: (at: MatrixStep<P, R>) => Promise<number>,
): Promise<MatrixWalk> {
  const wrong: string[] = [];
  let attempts = 0;
  for (const [column, principal] of principals.entries()) {
    for (const route of routes) attempts += await step({ principal, column, route, wrong });
  }
  return { wrong, attempts };
}

/** Prints the size of a walk and fails it on any wrong answer. */
export function expectNothingWrong(name: string, walk: MatrixWalk, routes: number, principals: number): void {
  console.log(
    `${name} authorisation matrix: ${routes} routes x ${principals} principals = ${walk.attempts} calls; ` +
      `wrong answers: ${walk.wrong.length}`,
  );
  expect(walk.wrong).toEqual([]);
}
