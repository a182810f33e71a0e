import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * Every outbound call the server makes, found in its source with the TypeScript checker: imports of network
 * modules, calls of the platform's fetch (and WebSocket, EventSource), and provider SDK clients. Each must go
 * through the guarded client, or be listed below with the reason its address is never a tenant's.
 */

const SRC = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(SRC, '..');

/** Modules that open connections of their own. */
const NETWORK_MODULES = [
  /^(node:)?(http|https|http2|net|tls|dgram)$/u,
  /^(undici|ws|node-fetch|axios|got|nodemailer|openai)$/u,
  /^@aws-sdk\//u,
  /^@ai-sdk\//u,
];
/** Globals that open connections. */
const NETWORK_GLOBALS = new Set(['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']);

/** Outbound calls whose address is the operator's or the guarded client's own, never a tenant's. */
const ALLOWED: Record<string, string> = {
  'lib/guarded-http/guarded-fetch.ts imports node:http':
    'the guarded client itself: it connects only to the address it has just checked',
  'lib/guarded-http/guarded-fetch.ts imports node:https': 'the guarded client itself (https)',
  'lib/guarded-http/guarded-fetch.ts imports node:tls':
    'the guarded client itself (its trusted certificates)',
  'lib/guarded-http/guarded-websocket.ts imports ws':
    'the guarded socket opener itself: it connects only to the address it has just checked',
  'modules/integrations/providers/connect.ts imports @aws-sdk/client-connect':
    'its requests are sent by GuardedSmithyHandler through the guarded web fetch, never by the SDK',
  'modules/integrations/providers/connect.ts imports @aws-sdk/client-connectparticipant':
    'its requests are sent by GuardedSmithyHandler through the guarded web fetch, never by the SDK',
  'modules/integrations/providers/bedrock-runtime.ts imports @aws-sdk/client-bedrock-runtime':
    'its requests are sent by GuardedSmithyHandler through the guarded web fetch, never by the SDK',
  'modules/integrations/providers/lex-runtime.ts imports @aws-sdk/client-lex-runtime-v2':
    'its requests are sent by GuardedSmithyHandler through the guarded web fetch, never by the SDK',
  'modules/speech/aws-speech.ts imports @aws-sdk/client-polly':
    'its requests are sent by GuardedSmithyHandler through the guarded web fetch, never by the SDK',
  'modules/speech/aws-speech.ts imports @aws-sdk/client-translate':
    'its requests are sent by GuardedSmithyHandler through the guarded web fetch, never by the SDK',
  'modules/speech/visitor-geolocation.ts imports node:net':
    'isIP only, to check an address; it connects nowhere',
  'lib/mailer.ts imports nodemailer': 'SMTP_URL is set by the operator; tenants give no mail server',
  'storage/s3-driver.ts imports @aws-sdk/client-s3': 'the S3 store is configured by the operator (S3_*)',
  'storage/s3-driver.ts imports @aws-sdk/s3-request-presigner':
    'signs URLs of the operator’s S3 store, without connecting',
};

function productionFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : productionFiles(path);
    const isSource = entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts');
    const isTestCode = /\.(test|suite)\.ts$|test-support\.ts$/u.test(entry.name);
    return isSource && !isTestCode ? [path] : [];
  });
}

/** True when the symbol is declared only by the platform (TypeScript's lib files, @types/node, undici-types). */
function isPlatformGlobal(symbol: ts.Symbol | undefined): boolean {
  const declarations = symbol?.declarations ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((declaration) =>
      /node_modules[\\/](typescript[\\/]lib|@types[\\/]node|undici-types)[\\/]/u.test(
        declaration.getSourceFile().fileName,
      ),
    )
  );
}

const importedFrom = (node: ts.ImportDeclaration) => (node.moduleSpecifier as ts.StringLiteral).text;

/** The outbound calls of the given files, as "<file> imports <module>" or "<file> calls <global>" lines. */
function outboundCalls(files: string[], root: string): string[] {
  const configFile = ts.readConfigFile(join(SERVER, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, SERVER);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`not compiled: ${file}`);
    const name = relative(root, file).split(sep).join('/');
    // Provider SDK factories are guarded when every call passes the guarded client as its fetch.
    const sdkFactories = new Set<string>();
    const guardedSdk = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
        const module = importedFrom(node);
        if (NETWORK_MODULES.some((pattern) => pattern.test(module))) {
          const bindings = node.importClause?.namedBindings;
          if (/^(@ai-sdk\/|openai$)/u.test(module) && bindings && ts.isNamedImports(bindings)) {
            for (const element of bindings.elements) sdkFactories.add(element.name.text);
          } else {
            const shown = /^(http|https|http2|net|tls|dgram)$/u.test(module) ? `node:${module}` : module;
            found.push(`${name} imports ${shown}`);
          }
        }
      }
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ts.isIdentifier(node.expression)) {
        const callee = node.expression.text;
        if (NETWORK_GLOBALS.has(callee) && isPlatformGlobal(checker.getSymbolAtLocation(node.expression))) {
          found.push(`${name} calls ${callee}`);
        }
        if (sdkFactories.has(callee)) {
          const passesFetch = (node.arguments ?? []).some(
            (argument) =>
              ts.isObjectLiteralExpression(argument) &&
              argument.properties.some((property) => property.name?.getText(source) === 'fetch'),
          );
          if (passesFetch) guardedSdk.add(callee);
          else found.push(`${name} calls ${callee} without the guarded fetch`);
        }
      }
      if (
        ts.isPropertyAccessExpression(node) &&
        node.expression.getText(source) === 'globalThis' &&
        NETWORK_GLOBALS.has(node.name.text)
      ) {
        found.push(`${name} calls globalThis.${node.name.text}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const factory of sdkFactories) {
      if (!guardedSdk.has(factory) && !found.some((line) => line.startsWith(`${name} calls ${factory}`))) {
        found.push(`${name} imports ${factory} and never calls it with the guarded fetch`);
      }
    }
  }
  return found;
}

const planted = mkdtempSync(join(tmpdir(), 'outbound-'));
afterAll(() => rmSync(planted, { recursive: true, force: true }));

describe('outbound calls', () => {
  it('go through the guarded client everywhere, but for the reasoned exceptions', () => {
    const found = outboundCalls(productionFiles(SRC), SRC);
    expect(found.filter((line) => !(line in ALLOWED))).toEqual([]);
    // A stale exception would hide a new call of the same kind.
    expect(Object.keys(ALLOWED).filter((line) => !found.includes(line))).toEqual([]);
  }, 300_000);

  it('are found: a platform fetch, a socket, a network module and an SDK client without the guarded fetch', () => {
    const file = join(planted, 'leaky.ts');
    writeFileSync(
      file,
      [
        "import https from 'node:https';",
        "import { createOpenAICompatible } from '@ai-sdk/openai-compatible';",
        'export async function leak(url: string, fetchLike: (input: string) => Promise<unknown>) {',
        '  await fetchLike(url);',
        '  await fetch(url);',
        '  await globalThis.fetch(url);',
        '  new WebSocket(url);',
        "  createOpenAICompatible({ name: 'x', baseURL: url });",
        '  return https;',
        '}',
      ].join('\n'),
    );
    expect(outboundCalls([file], planted).sort()).toEqual(
      [
        'leaky.ts calls WebSocket',
        'leaky.ts calls createOpenAICompatible without the guarded fetch',
        'leaky.ts calls fetch',
        'leaky.ts calls globalThis.fetch',
        'leaky.ts imports node:https',
      ].sort(),
    );
  }, 300_000);
});
