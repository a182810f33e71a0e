// The server's production files import each other without a loop: a cycle ties modules that the module order
// keeps apart, and makes the start-up order of their top-level code depend on who is imported first.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER_SRC = fileURLToPath(new URL('../apps/server/src', import.meta.url));
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

const isTestOnly = (file) =>
  /\.(test|test-support|fixtures)\.ts$/.test(file) || file.includes(`${path.sep}test${path.sep}`);

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') && !isTestOnly(full) ? [full] : [];
  });
}

/** The file a relative import names, as TypeScript resolves it here (x.ts or x/index.ts). */
function resolveImport(from, specifier, known) {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => known.has(candidate)) ?? null;
}

/** Each production file with the production files it imports. */
export function importGraph(root = SERVER_SRC) {
  const files = sourceFiles(root);
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(IMPORT)]
        .map((match) => resolveImport(file, match[1] ?? match[2], known))
        .filter((target) => target !== null);
      return [file, [...new Set(targets)]];
    }),
  );
}

/** The strongly connected groups of more than one file (or a file importing itself): Tarjan's algorithm. */
export function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('server import cycles', () => {
  it('finds a loop of three files and leaves a chain alone', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads the server: no production file imports itself back through others', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    const relative = cycles(graph).map((group) => group.map((file) => path.relative(SERVER_SRC, file)));
    expect(relative).toEqual([]);
  });
});
