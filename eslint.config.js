import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import tseslint from 'typescript-eslint';

// The console's layers, after bulletproof-react: shared code (components, lib, hooks, config, utils, types)
// -> features -> app. Imports only point down that list, and a feature never reaches into another feature.
const CONSOLE_SRC = path.join(import.meta.dirname, 'apps/console/src');
const SHARED_LAYERS = new Set(['components', 'lib', 'hooks', 'config', 'utils', 'types', 'test']);

/** Where a file sits in the console: its layer and, inside features/, its feature; null outside the console. */
function consoleZone(file) {
  const relative = path.relative(CONSOLE_SRC, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const [layer, feature] = relative.split(path.sep);
  return { layer, feature: layer === 'features' ? feature : undefined };
}

/** The file a relative import, export or dynamic import names, resolved; null for packages and computed names. */
function relativeTarget(context, source) {
  if (source?.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.'))
    return null;
  return path.resolve(path.dirname(context.filename), source.value);
}

/** Runs `check` on the source of every import, re-export and dynamic import of a file. */
function importVisitors(check) {
  return {
    ImportDeclaration: (node) => check(node.source),
    ExportNamedDeclaration: (node) => check(node.source),
    ExportAllDeclaration: (node) => check(node.source),
    ImportExpression: (node) => check(node.source),
  };
}

const importZones = {
  meta: {
    type: 'problem',
    docs: { description: 'Console layering: shared -> features -> app; no feature imports another feature.' },
    schema: [],
    messages: {
      crossFeature:
        'features/{{from}} may not import features/{{to}}: move the shared part to components/ or lib/, or compose both in app/.',
      upward: '{{from}}/ may not import {{to}}/: shared code must not depend on features or on the app.',
    },
  },
  create(context) {
    const from = consoleZone(context.filename);
    if (!from) return {};
    const check = (source) => {
      const target = relativeTarget(context, source);
      if (!target) return;
      const to = consoleZone(target);
      if (!to) return;
      if (from.layer === 'features' && to.layer === 'features' && from.feature !== to.feature) {
        context.report({
          node: source,
          messageId: 'crossFeature',
          data: { from: from.feature, to: to.feature },
        });
      } else if (to.layer === 'app' && from.layer !== 'app') {
        context.report({ node: source, messageId: 'upward', data: { from: from.layer, to: 'app' } });
      } else if (to.layer === 'features' && SHARED_LAYERS.has(from.layer)) {
        context.report({ node: source, messageId: 'upward', data: { from: from.layer, to: 'features' } });
      }
    };
    return importVisitors(check);
  },
};

// The server's modules import downwards only, in this order (a module may import those before it). The
// foundations (plugins, lib, db, storage, jobs) import no module, lib imports no plugin, and only the entry points
// import the files that wire the app together.
const SERVER_SRC = path.join(import.meta.dirname, 'apps/server/src');
export const SERVER_MODULE_ORDER = [
  'tenancy',
  'auth',
  'session',
  'accounts',
  'files',
  'models',
  'integrations',
  'prompts',
  'knowledge',
  'indexes',
  'rag',
  'schedules',
  'bots',
  'conversations',
  'dashboard',
  'bot-templates',
  'bot-testing',
  'speech',
  'case-summaries',
  'live-agents',
  'widget',
  'health',
];
const SERVER_FOUNDATIONS = new Set(['plugins', 'lib', 'db', 'storage', 'jobs']);
const SERVER_WIRING = new Set(['app', 'main', 'bootstrap']);

/** Where a file sits in the server: a module, a foundation folder or a top-level file; null outside the server. */
function serverZone(file) {
  const relative = path.relative(SERVER_SRC, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const parts = relative.split(path.sep);
  if (parts[0] === 'modules' && parts.length > 2) return { kind: 'module', name: parts[1] };
  if (parts.length === 1) {
    const name = parts[0].replace(/\.[cm]?[jt]s$/, '');
    return { kind: SERVER_WIRING.has(name) ? 'wiring' : 'top', name };
  }
  return { kind: SERVER_FOUNDATIONS.has(parts[0]) ? 'foundation' : 'top', name: parts[0] };
}

const serverModuleOrder = {
  meta: {
    type: 'problem',
    docs: { description: 'Server modules import downwards only; foundations import no module.' },
    schema: [],
    messages: {
      upward:
        'modules/{{from}} may not import modules/{{to}}: {{to}} comes after {{from}} in the module order. Move the shared part down, or let app.ts hand it over.',
      unordered:
        'modules/{{name}} is not in the server module order (SERVER_MODULE_ORDER in eslint.config.js).',
      foundation:
        '{{from}}/ may not import modules/{{to}}: plugins, lib, db, storage and jobs import no module. Take what you need as a parameter.',
      libPlugin: 'lib/ may not import plugins/: lib is below the plugins.',
      wiring:
        '{{from}} may not import {{to}}.ts: only the entry points wire the app; receive what you need from buildApp.',
    },
  },
  create(context) {
    const from = serverZone(context.filename);
    if (!from) return {};
    const check = (source) => {
      const target = relativeTarget(context, source);
      if (!target) return;
      const to = serverZone(target);
      if (!to) return;
      const fromName = from.kind === 'module' ? `modules/${from.name}` : from.name;
      if (to.kind === 'wiring' && from.kind !== 'wiring') {
        context.report({ node: source, messageId: 'wiring', data: { from: fromName, to: to.name } });
      } else if (to.kind === 'module' && from.kind === 'foundation') {
        context.report({ node: source, messageId: 'foundation', data: { from: from.name, to: to.name } });
      } else if (from.kind === 'foundation' && from.name === 'lib' && to.name === 'plugins') {
        context.report({ node: source, messageId: 'libPlugin' });
      } else if (from.kind === 'module' && to.kind === 'module' && from.name !== to.name) {
        const [fromRank, toRank] = [from.name, to.name].map((name) => SERVER_MODULE_ORDER.indexOf(name));
        const unordered = fromRank === -1 ? from.name : toRank === -1 ? to.name : null;
        if (unordered !== null) {
          context.report({ node: source, messageId: 'unordered', data: { name: unordered } });
        } else if (toRank > fromRank) {
          context.report({ node: source, messageId: 'upward', data: { from: from.name, to: to.name } });
        }
      }
    };
    return importVisitors(check);
  },
};

// A module's tables are its own: another module reads or writes them only by calling a function the owner's
// service exports (a module calls modules before it in the order; data a later module owns reaches an earlier one
// as a parameter). A join that must stay in one statement for speed goes through a table-access function the
// owner exports (a column or subquery builder such as bots' botNameSql), never through the owner's table itself.
// Types (row and settings shapes) may be imported anywhere: they read nothing. Every table has one owner here.
export const SERVER_TABLE_OWNERS = {
  // better-auth writes these itself, so the four modules that wrap it form one identity layer and share them.
  'tenancy auth session accounts': [
    'tenants',
    'subscriptions',
    'users',
    'credentials',
    'authUsers',
    'authSessions',
    'authAccounts',
    'authVerifications',
    'rateLimitEvents',
  ],
  files: ['files', 'folders', 'fileUploads'],
  models: ['models', 'modelShares'],
  integrations: ['integrations'],
  prompts: ['prompts', 'promptVersions'],
  knowledge: [
    'knowledgeBases',
    'knowledgeSources',
    'knowledgeSourcePages',
    'knowledgeChunks',
    'knowledgePostings',
    'knowledgeBaseStats',
    'knowledgeQa',
  ],
  indexes: ['indexes', 'indexKnowledgeBases', 'chunkEmbeddings'],
  rag: ['rags', 'ragAnswers'],
  schedules: ['schedules'],
  speech: ['speechAudioCache'],
  bots: ['bots', 'botOrigins'],
  // The conversation store that the widget, live-agents, case-summaries and the dashboard read and write: its own
  // module, right after bots so every one of them may call it (modules/conversations, to be made from the pending
  // reads below).
  conversations: ['conversations', 'conversationMessages', 'messageFeedback'],
  'bot-templates': ['botTemplates'],
  'bot-testing': ['botTestCases', 'botTestRuns'],
  'case-summaries': ['caseSummaryConfigs', 'caseSummaryConfigBots', 'conversationSummaries'],
  'live-agents': ['liveProviderSessions', 'conversationEvents', 'agentPreferences'],
};
// Written by the foundations (lib/audit, the rate limiter, bootstrap) for every module: any module may use them.
export const SERVER_PLATFORM_TABLES = ['auditLog', 'rateLimitCounters', 'systemSettings'];

// Reads that still cross a module's tables, to be moved behind the owner's service; the list only shrinks (a test
// fails on an entry whose import is gone).
export const SERVER_TABLE_READS_PENDING = {
  'apps/server/src/modules/bots/engines/lex.ts': ['conversationMessages'],
  'apps/server/src/modules/case-summaries/case-summaries.service.ts': [
    'conversationMessages',
    'conversations',
  ],
  'apps/server/src/modules/dashboard/dashboard.service.ts': [
    'bots',
    'conversationMessages',
    'conversations',
    'messageFeedback',
  ],
  'apps/server/src/modules/integrations/integrations.service.ts': ['bots', 'indexes', 'rags'],
  'apps/server/src/modules/live-agents/handover.service.ts': ['conversations'],
  'apps/server/src/modules/live-agents/inbox.service.ts': ['conversationMessages', 'conversations'],
  'apps/server/src/modules/live-agents/provider-relay.ts': ['conversationMessages', 'conversations'],
  'apps/server/src/modules/live-agents/provider-sessions.ts': ['conversationMessages'],
  'apps/server/src/modules/widget/live.routes.ts': ['conversations'],
  'apps/server/src/modules/widget/visitor.service.ts': [
    'conversationMessages',
    'conversations',
    'messageFeedback',
  ],
};

const SCHEMA_DIR = path.join(SERVER_SRC, 'db/schema');

/** The tables db/schema declares (`export const x = pgTable(...)`), each with the file that declares it. */
export function schemaTables() {
  return new Map(
    readdirSync(SCHEMA_DIR)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) =>
        [
          ...readFileSync(path.join(SCHEMA_DIR, name), 'utf8').matchAll(/^export const (\w+) = pgTable\(/gm),
        ].map((match) => [match[1], name]),
      ),
  );
}

const TABLE_OWNERS = new Map(
  Object.entries(SERVER_TABLE_OWNERS).flatMap(([owners, tables]) =>
    tables.map((table) => [table, owners.split(' ')]),
  ),
);
const SCHEMA_TABLES = schemaTables();

const serverTableOwners = {
  meta: {
    type: 'problem',
    docs: {
      description: "A server module touches another module's tables only through that module's services.",
    },
    schema: [
      {
        type: 'object',
        properties: {
          pending: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      foreign:
        "modules/{{from}} may not import table {{table}}: modules/{{owner}} owns it. Call a function {{owner}}'s service exports (or take the data as a parameter when {{owner}} comes later).",
      unowned: 'Table {{table}} has no owner: add it to SERVER_TABLE_OWNERS in eslint.config.js.',
      whole:
        'modules/{{from}} may not import db/schema as a whole: name the tables it owns, so lint can check them.',
    },
  },
  create(context) {
    const from = serverZone(context.filename);
    if (from?.kind !== 'module') return {};
    const pending = context.options[0]?.pending?.[path.relative(import.meta.dirname, context.filename)] ?? [];
    const isSchema = (source) => {
      const target = relativeTarget(context, source);
      return target !== null && (target === SCHEMA_DIR || target.startsWith(SCHEMA_DIR + path.sep));
    };
    const checkTable = (node, table) => {
      if (!SCHEMA_TABLES.has(table) || SERVER_PLATFORM_TABLES.includes(table)) return;
      const owners = TABLE_OWNERS.get(table);
      if (!owners) {
        context.report({ node, messageId: 'unowned', data: { table } });
      } else if (!owners.includes(from.name) && !pending.includes(table)) {
        context.report({
          node,
          messageId: 'foreign',
          data: { from: from.name, table, owner: owners.join('/') },
        });
      }
    };
    const checkSpecifiers = (node) => {
      if (!isSchema(node.source) || node.importKind === 'type' || node.exportKind === 'type') return;
      for (const specifier of node.specifiers) {
        if (specifier.type === 'ImportNamespaceSpecifier') {
          context.report({ node: specifier, messageId: 'whole', data: { from: from.name } });
        } else if (specifier.importKind !== 'type' && specifier.exportKind !== 'type') {
          const imported = specifier.type === 'ImportSpecifier' ? specifier.imported : specifier.local;
          if (imported?.type === 'Identifier') checkTable(specifier, imported.name);
        }
      }
    };
    const whole = (node) => {
      if (isSchema(node.source)) context.report({ node, messageId: 'whole', data: { from: from.name } });
    };
    return {
      ImportDeclaration: checkSpecifiers,
      ExportNamedDeclaration: (node) => node.source && checkSpecifiers(node),
      ExportAllDeclaration: whole,
      ImportExpression: whole,
    };
  },
};

const BETTER_AUTH_SERVER =
  'Only the better-auth client entries (better-auth/react, better-auth/client) run in a browser.';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/console/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Narrow instead: a helper that throws (principalOf, a found-or-404 lookup) or an explicit check.
      '@typescript-eslint/no-non-null-assertion': 'error',
      // Fastify handlers are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration in apps/server/src/env.ts only.',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: [
      'apps/server/src/env.ts',
      'scripts/**',
      '**/*.config.ts',
      '**/*.config.js',
      'apps/server/build.mjs',
      'e2e/**',
      'bench/**',
      '**/*.test.ts',
      'apps/server/src/test/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['apps/console/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['error', { allowConstantExport: true }],
    },
  },
  {
    files: ['apps/widget/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['apps/console/src/**/*.{ts,tsx}'],
    plugins: { omnibot: { rules: { 'import-zones': importZones } } },
    rules: { 'omnibot/import-zones': 'error' },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    // Tests and their fixtures may reach any module to set a scene up.
    ignores: ['**/*.test.ts', '**/*.test-support.ts', '**/*.fixtures.ts', 'apps/server/src/test/**'],
    plugins: {
      omnibot: {
        rules: { 'server-module-order': serverModuleOrder, 'server-table-owners': serverTableOwners },
      },
    },
    rules: {
      'omnibot/server-module-order': 'error',
      'omnibot/server-table-owners': ['error', { pending: SERVER_TABLE_READS_PENDING }],
    },
  },
  {
    // Browser apps talk to the server over HTTP only: no server, database or Node packages in their bundles.
    files: ['apps/console/src/**/*.{ts,tsx}', 'apps/widget/src/**/*.{ts,tsx}'],
    // The widget's test server runs in Node beside the tests, never in a bundle.
    ignores: ['apps/widget/src/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'better-auth', message: BETTER_AUTH_SERVER }],
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*', 'fastify', 'fastify/*', '@fastify/*', 'pg', 'pg/*'],
              message: 'Server-only package: the browser apps reach the server through the HTTP API.',
            },
            {
              group: ['better-auth/*', '!better-auth/react', '!better-auth/client'],
              message: BETTER_AUTH_SERVER,
            },
            { group: ['node:*'], message: 'Node built-ins do not exist in a browser.' },
          ],
        },
      ],
    },
  },
);
