// The architecture rules of eslint.config.js: console layers, server module order, server table owners and
// browser-only packages.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import {
  SERVER_MODULE_ORDER,
  SERVER_PLATFORM_TABLES,
  SERVER_TABLE_OWNERS,
  SERVER_TABLE_READS_PENDING,
  schemaTables,
} from '../eslint.config.js';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
// The snippets are not part of a tsconfig project, so they are linted without type information.
const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });

/** The boundary messages for `code` written at `filePath` (relative to the repository). */
async function boundaryErrors(filePath, code) {
  const [result] = await eslint.lintText(`${code}\nexport const used = value;\n`, { filePath });
  return result.messages
    .filter((m) =>
      [
        'omnibot/import-zones',
        'omnibot/server-module-order',
        'omnibot/server-table-owners',
        'no-restricted-imports',
      ].includes(m.ruleId),
    )
    .map((m) => ({ rule: m.ruleId, severity: m.severity, message: m.message }));
}

describe('console import zones', () => {
  it('a feature importing another feature is an error', async () => {
    const errors = await boundaryErrors(
      'apps/console/src/features/users/components/probe.ts',
      "import { value } from '../../tenants/api/get-tenant';",
    );
    expect(errors).toEqual([expect.objectContaining({ rule: 'omnibot/import-zones', severity: 2 })]);
    expect(errors[0].message).toContain('features/users may not import features/tenants');
  });

  it('components/ and lib/ importing a feature, or anything importing app/, are errors', async () => {
    for (const [file, source] of [
      ['apps/console/src/components/ui/probe.ts', '../../features/files/components/file-manager'],
      ['apps/console/src/lib/probe.ts', '../features/auth/api/get-auth-state'],
      ['apps/console/src/features/files/probe.ts', '../../app/router'],
      ['apps/console/src/components/probe.ts', '../app/provider'],
    ]) {
      const errors = await boundaryErrors(file, `import { value } from '${source}';`);
      expect(errors, `${file} -> ${source}`).toEqual([
        expect.objectContaining({ rule: 'omnibot/import-zones', severity: 2 }),
      ]);
    }
  });

  it('dynamic imports and re-exports are checked too', async () => {
    const file = 'apps/console/src/features/users/probe.ts';
    expect(await boundaryErrors(file, "const value = await import('../subscriptions/x');")).toHaveLength(1);
    expect(
      await boundaryErrors(file, "export { x } from '../menu-search/x';\nconst value = 1;"),
    ).toHaveLength(1);
  });

  it('allows imports inside a feature, from shared code, and from features into app/', async () => {
    const allowed = [
      ['apps/console/src/features/users/components/probe.ts', '../api/list-users'],
      ['apps/console/src/features/users/components/probe.ts', '../../../components/ui/data-table'],
      ['apps/console/src/features/users/components/probe.ts', '../../../lib/api-client'],
      ['apps/console/src/app/routes/probe.ts', '../../features/users/components/user-list'],
      ['apps/console/src/components/ui/probe.ts', '../../lib/dates'],
      ['apps/console/src/features/users/probe.ts', '@omnibot/contracts'],
    ];
    for (const [file, source] of allowed) {
      expect(
        await boundaryErrors(file, `import { value } from '${source}';`),
        `${file} -> ${source}`,
      ).toEqual([]);
    }
  });
});

describe('browser apps never import server or Node code', () => {
  it.each([
    ['drizzle-orm', 'apps/console/src/lib/probe.ts'],
    ['drizzle-orm/pg-core', 'apps/console/src/features/files/probe.ts'],
    ['fastify', 'apps/console/src/lib/probe.ts'],
    ['pg', 'apps/console/src/lib/probe.ts'],
    ['better-auth', 'apps/console/src/lib/probe.ts'],
    ['better-auth/node', 'apps/console/src/lib/probe.ts'],
    ['node:fs', 'apps/console/src/components/probe.ts'],
    ['node:fs', 'apps/widget/src/probe.ts'],
    ['drizzle-orm', 'apps/widget/src/probe.ts'],
  ])('%s in %s is an error', async (source, file) => {
    const errors = await boundaryErrors(file, `import { value } from '${source}';`);
    expect(errors).toEqual([expect.objectContaining({ rule: 'no-restricted-imports', severity: 2 })]);
  });

  it('allows the better-auth client entry, and the server keeps its own packages', async () => {
    expect(
      await boundaryErrors('apps/console/src/lib/probe.ts', "import { value } from 'better-auth/react';"),
    ).toEqual([]);
    expect(await boundaryErrors('apps/server/src/probe.ts', "import { value } from 'drizzle-orm';")).toEqual(
      [],
    );
    expect(await boundaryErrors('apps/server/src/probe.ts', "import { value } from 'node:fs';")).toEqual([]);
  });
});

describe('server module order', () => {
  const order = (from, source) => boundaryErrors(from, `import { value } from '${source}';`);

  it('a module importing a module later in the order is an error', async () => {
    const errors = await order('apps/server/src/modules/bots/probe.ts', '../widget/widget-access');
    expect(errors).toEqual([expect.objectContaining({ rule: 'omnibot/server-module-order', severity: 2 })]);
    expect(errors[0].message).toContain('modules/bots may not import modules/widget');
    expect(await order('apps/server/src/modules/indexes/search.ts', '../rag/rag-answer')).toHaveLength(1);
    expect(await order('apps/server/src/modules/tenancy/probe.ts', '../auth/auth')).toHaveLength(1);
  });

  it('plugins, lib, db, storage and jobs import no module; lib imports no plugin', async () => {
    for (const [file, source] of [
      ['apps/server/src/plugins/probe.ts', '../modules/auth/auth'],
      ['apps/server/src/lib/probe.ts', '../modules/tenancy/tenant-access'],
      ['apps/server/src/db/probe.ts', '../modules/files/files.service'],
      ['apps/server/src/storage/probe.ts', '../modules/files/files.service'],
      ['apps/server/src/jobs/probe.ts', '../modules/auth/rate-limits'],
      ['apps/server/src/lib/probe.ts', '../plugins/principal'],
    ]) {
      expect(await order(file, source), `${file} -> ${source}`).toEqual([
        expect.objectContaining({ rule: 'omnibot/server-module-order' }),
      ]);
    }
  });

  it('only the entry points import the wiring; a module outside the order is named', async () => {
    expect((await order('apps/server/src/modules/rag/probe.ts', '../../bootstrap'))[0].message).toContain(
      'may not import bootstrap.ts',
    );
    expect(await order('apps/server/src/plugins/probe.ts', '../app')).toHaveLength(1);
    expect((await order('apps/server/src/modules/bots/probe.ts', '../newcomer/x'))[0].message).toContain(
      'modules/newcomer is not in the server module order',
    );
  });

  it('allows downward imports, imports inside a module, foundations, and tests anywhere', async () => {
    for (const [file, source] of [
      ['apps/server/src/modules/widget/probe.ts', '../bots/bots.service'],
      ['apps/server/src/modules/rag/probe.ts', '../indexes/search'],
      ['apps/server/src/modules/rag/answer/probe.ts', '../rag-answer'],
      ['apps/server/src/modules/bots/probe.ts', '../../lib/errors'],
      ['apps/server/src/modules/bots/probe.ts', '../../plugins/principal'],
      ['apps/server/src/lib/probe.ts', '../db/client'],
      ['apps/server/src/app.ts', './modules/widget/widget-access'],
      ['apps/server/src/main.ts', './bootstrap'],
      ['apps/server/src/modules/files/probe.test.ts', '../bots/bots.service'],
      ['apps/server/src/test/probe.ts', '../modules/widget/widget-access'],
    ]) {
      expect(await order(file, source), `${file} -> ${source}`).toEqual([]);
    }
  });
});

describe('server table owners', () => {
  const tables = (from, code) => boundaryErrors(from, code);

  it("a module importing another module's table is an error, whichever schema file it names", async () => {
    const errors = await tables(
      'apps/server/src/modules/widget/probe.ts',
      "import { bots, conversations as value } from '../../db/schema';",
    );
    expect(errors).toEqual([
      expect.objectContaining({ rule: 'omnibot/server-table-owners', severity: 2 }),
      expect.objectContaining({ rule: 'omnibot/server-table-owners', severity: 2 }),
    ]);
    expect(errors[0].message).toContain('modules/widget may not import table bots: modules/bots owns it');
    expect(errors[1].message).toContain('table conversations: modules/conversations owns it');
    for (const [file, code] of [
      [
        'apps/server/src/modules/rag/answer/probe.ts',
        "import { prompts as value } from '../../../db/schema/prompts';",
      ],
      ['apps/server/src/modules/models/probe.ts', "import { tenants as value } from '../../db/schema';"],
      [
        'apps/server/src/modules/bots/probe.ts',
        "export { rags as value } from '../../db/schema';\nconst value = 1;",
      ],
    ]) {
      expect(await tables(file, code), `${file}: ${code}`).toEqual([
        expect.objectContaining({ rule: 'omnibot/server-table-owners' }),
      ]);
    }
  });

  it('a module may not take db/schema whole', async () => {
    for (const code of [
      "import * as value from '../../db/schema';",
      "const value = await import('../../db/schema');",
      "export * from '../../db/schema/bots';\nconst value = 1;",
    ]) {
      const errors = await tables('apps/server/src/modules/bots/probe.ts', code);
      expect(errors, code).toEqual([expect.objectContaining({ rule: 'omnibot/server-table-owners' })]);
      expect(errors[0].message).toContain('may not import db/schema as a whole');
    }
  });

  it("allows a module's own tables, others' types and constants, platform tables, the identity layer, and tests", async () => {
    for (const [file, code] of [
      [
        'apps/server/src/modules/bots/probe.ts',
        "import { bots, botOrigins as value } from '../../db/schema';",
      ],
      ['apps/server/src/modules/widget/probe.ts', "import type { BotRow as value } from '../../db/schema';"],
      [
        'apps/server/src/modules/widget/probe.ts',
        "import { type BotRow, type ConversationRow as value } from '../../db/schema';",
      ],
      ['apps/server/src/modules/rag/probe.ts', "import { SOURCE_TYPES as value } from '../../db/schema';"],
      [
        'apps/server/src/modules/files/probe.ts',
        "import { systemSettings, auditLog as value } from '../../db/schema';",
      ],
      [
        'apps/server/src/modules/auth/probe.ts',
        "import { tenants, users, credentials as value } from '../../db/schema';",
      ],
      [
        'apps/server/src/modules/tenancy/probe.ts',
        "import { subscriptions as value } from '../../db/schema';",
      ],
      ['apps/server/src/modules/widget/probe.test.ts', "import { bots as value } from '../../db/schema';"],
      ['apps/server/src/lib/probe.ts', "import { bots as value } from '../db/schema';"],
      ['apps/server/src/app.ts', "import { bots as value } from './db/schema';"],
    ]) {
      expect(await tables(file, code), `${file}: ${code}`).toEqual([]);
    }
  });

  it('every table in db/schema has exactly one owner, and every owner is a module in the order', () => {
    const declared = [...schemaTables().keys()].sort();
    expect(declared.length).toBeGreaterThan(40);
    const owned = [...Object.values(SERVER_TABLE_OWNERS).flat(), ...SERVER_PLATFORM_TABLES].sort();
    expect(owned).toEqual(declared);
    for (const owners of Object.keys(SERVER_TABLE_OWNERS)) {
      for (const owner of owners.split(' ')) expect(SERVER_MODULE_ORDER, owner).toContain(owner);
    }
  });

  it('the pending reads are exactly the crossings that stand in the code, so the list only shrinks', async () => {
    const strict = new ESLint({
      cwd: root,
      overrideConfig: [
        tseslint.configs.disableTypeChecked,
        {
          files: ['apps/server/src/**/*.ts'],
          rules: { 'omnibot/server-table-owners': ['error', { pending: {} }] },
        },
      ],
    });
    const results = await strict.lintFiles(Object.keys(SERVER_TABLE_READS_PENDING));
    const standing = Object.fromEntries(
      results.map((result) => [
        result.filePath.slice(root.length),
        result.messages
          .filter((m) => m.ruleId === 'omnibot/server-table-owners')
          .map((m) => /table (\w+)/.exec(m.message)?.[1])
          .sort(),
      ]),
    );
    expect(standing).toEqual(SERVER_TABLE_READS_PENDING);
  }, 60_000);
});
