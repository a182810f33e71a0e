// Keeps the README's configuration table in step with apps/server/src/env.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url);
const envSource = readFileSync(new URL('apps/server/src/env.ts', root), 'utf8');
const readme = readFileSync(new URL('README.md', root), 'utf8');

const schemaBody = /const EnvSchema = z\.object\(\{\n([\s\S]*?)\n\}\);/.exec(envSource)?.[1] ?? '';
const variables = [
  ...schemaBody.matchAll(/^ {2}([A-Z][A-Z0-9_]*):([\s\S]*?)(?=^ {2}[A-Z]|$(?![\s\S]))/gm),
].map(([, name, definition]) => {
  const fallback = /\.default\(([^)]*)\)/.exec(definition)?.[1];
  return { name, fallback: fallback?.replace(/^'(.*)'$/, '$1').replaceAll('_', '') };
});
const rows = new Map(
  [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|([^|]*)\|([^|]*)\|$/gm)].map(
    ([, name, fallback, meaning]) => [name, { fallback: fallback.trim(), meaning: meaning.trim() }],
  ),
);

describe('README configuration table', () => {
  it('finds the variables in env.ts', () => {
    expect(variables.length).toBeGreaterThan(10);
  });

  it('lists every variable of apps/server/src/env.ts, and only those (update README.md with env.ts)', () => {
    expect([...rows.keys()].sort()).toEqual(variables.map((variable) => variable.name).sort());
  });

  it.each(variables)('gives the default and a meaning of $name', ({ name, fallback }) => {
    const row = rows.get(name);
    expect(row?.meaning).toBeTruthy();
    if (fallback !== undefined) expect(row?.fallback).toBe(`\`${fallback}\``);
  });
});
