import { describe, expect, it } from 'vitest';
import {
  MENU,
  MENU_ICON_NAMES,
  flattenMenu,
  isMenuRole,
  menuRuleHolds,
  searchMenu,
  visibleMenu,
  type MenuLevel,
  type MenuNode,
  type MenuSection,
} from './menu';
import { ROLES, type FeatureCode, type Role } from './tenancy';

const LEVELS: MenuLevel[] = ['1', '2', '3'];
const FLAGS: FeatureCode[] = ['omnirag', 'omniassist', 'casesummary', 'subtenant'];
const SUBSETS: FeatureCode[][] = Array.from({ length: 1 << FLAGS.length }, (_, mask) =>
  FLAGS.filter((_, bit) => mask & (1 << bit)),
);

/** "SECTION > Group > Label -> /route" for every link, walked here rather than with the module's helpers. */
function describeLinks(sections: MenuSection[]): string[] {
  const lines: string[] = [];
  const walk = (nodes: MenuNode[], path: string) => {
    for (const node of nodes) {
      if (node.kind === 'link') lines.push(`${path} > ${node.label} -> ${node.route}`);
      else walk(node.children, `${path} > ${node.label}`);
    }
  };
  for (const section of sections) walk(section.items, section.title);
  return lines;
}

/** The sidebar menu with its visibility conditions, written out independently of menu.ts. */
function expectedLinks(level: MenuLevel, role: Role, features: FeatureCode[], liveAgents = false): string[] {
  const has = (flag: FeatureCode) => features.includes(flag);
  const isAdminOrMaster = role === 'administrator' || role === 'master';
  const when = (condition: boolean, ...lines: string[]) => (condition ? lines : []);
  return [
    ...when(role !== 'agent', 'APPS > Getting Started -> /getting-started'),
    // Inbox: whoever the role, once a bot of the tenant hands over to the inbox.
    ...when(liveAgents, 'APPS > Inbox -> /inbox'),
    'APPS > Bots > Create -> /bot/customize',
    'APPS > Bots > Manage -> /bot/manage',
    'APPS > Bots > Install -> /bot/install',
    'APPS > Bots > Welcome Message -> /bot/config/message',
    ...when(has('omnirag'), 'APPS > Bots > Language RAG -> /bot/config/rag'),
    'APPS > Bot Templates > Create -> /bot/template/create',
    'APPS > Bot Templates > Manage -> /bot/template/manage',
    'APPS > File Manager > Files -> /file',
    'APPS > File Manager > Images -> /bot/gallery',
    'APPS > User Profile -> /profile',
    'SETTINGS > Account > Service Address -> /account',
    'SETTINGS > Account > Credentials -> /credential',
    // Client Org.: level 1 (any role), or level 2 with subtenant when administrator or master.
    ...when(
      level === '1' || (level === '2' && has('subtenant') && isAdminOrMaster),
      'SETTINGS > Account > Client Org. -> /tenant',
    ),
    ...when(isAdminOrMaster, 'SETTINGS > Account > Subscription -> /subscription'),
    'SETTINGS > Account > Scheduler -> /schedule',
    'SETTINGS > User > Users -> /user',
    'SETTINGS > Integration > All Integrations -> /bot/integration/list',
    'SETTINGS > Integration > Chatbot -> /bot/integration/chatbot',
    'SETTINGS > Integration > Contact Center -> /bot/integration/ccaas',
    ...when(
      has('omnirag'),
      'Omni RAG > RAGs -> /rag',
      'Omni RAG > Index -> /index',
      'Omni RAG > Knowledge Base -> /knowledge',
      'Omni RAG > Prompts > Create -> /prompt/compose',
      'Omni RAG > Prompts > Manage -> /prompt',
    ),
    ...when(has('omnirag') && role === 'master' && level !== '3', 'Omni RAG > Models -> /model'),
    ...when(has('casesummary'), 'Case Summarization > Configuration -> /cs/config'),
    // Omni Assist and SUPPORT hold only entries whose screens are not built yet.
  ];
}

describe('visibleMenu over the whole matrix', () => {
  const cases = LEVELS.flatMap((level) =>
    ROLES.flatMap((role) =>
      SUBSETS.flatMap((features) =>
        [false, true].map((liveAgents) => ({ level, role, features, liveAgents })),
      ),
    ),
  );

  it('covers 3 levels x 4 roles x 16 feature subsets x with and without live agents', () => {
    expect(cases).toHaveLength(384);
  });

  it.each(cases.map((c) => [c.level, c.role, c.features.join('+') || '(none)', c.liveAgents, c] as const))(
    'level %s, %s, features %s, live agents %s',
    (_level, _role, _features, _liveAgents, { level, role, features, liveAgents }) => {
      const menu = visibleMenu({ level, role, features, liveAgents });
      expect(describeLinks(menu)).toEqual(expectedLinks(level, role, features, liveAgents));

      const expectedSections = [
        'APPS',
        'SETTINGS',
        ...(features.includes('omnirag') ? ['Omni RAG'] : []),
        ...(features.includes('casesummary') ? ['Case Summarization'] : []),
      ];
      expect(menu.map((section) => section.title)).toEqual(expectedSections);
    },
  );
});

describe('menuRuleHolds', () => {
  it('holds for models exactly where the menu shows Models (a master at level 1 or 2), whatever the features', () => {
    for (const level of LEVELS) {
      for (const role of ROLES) {
        const holds = menuRuleHolds('models', { level, role, features: [] });
        expect(holds).toBe(role === 'master' && level !== '3');
        const shown = flattenMenu(visibleMenu({ level, role, features: ['omnirag'] })).some(
          (entry) => entry.route === '/model',
        );
        expect(shown).toBe(holds);
      }
    }
  });
});

describe('visibleMenu spot cases', () => {
  const labels = (sections: MenuSection[]) => describeLinks(sections).map((line) => line.split(' -> ')[0]);

  it('gives a level-3 user without features only the unconditional entries', () => {
    const menu = visibleMenu({ level: '3', role: 'user', features: [] });
    expect(menu.map((s) => s.title)).toEqual(['APPS', 'SETTINGS']);
    expect(describeLinks(menu)).toHaveLength(17);
    expect(labels(menu)).not.toContain('SETTINGS > Account > Client Org.');
    expect(labels(menu)).not.toContain('SETTINGS > Account > Subscription');
  });

  it('gives the platform master with every feature all 27 entries that have a screen, 28 with live agents', () => {
    const menu = visibleMenu({ level: '1', role: 'master', features: [...FLAGS] });
    expect(describeLinks(menu)).toHaveLength(27);
    expect(
      describeLinks(visibleMenu({ level: '1', role: 'master', features: [...FLAGS], liveAgents: true })),
    ).toHaveLength(28);
  });

  it('shows Client Org. at level 1 even to a user without the subtenant flag', () => {
    expect(labels(visibleMenu({ level: '1', role: 'user', features: [] }))).toContain(
      'SETTINGS > Account > Client Org.',
    );
  });

  it('shows Client Org. at level 2 only with subtenant and an administrator or master', () => {
    const at2 = (role: Role, features: FeatureCode[]) =>
      labels(visibleMenu({ level: '2', role, features })).includes('SETTINGS > Account > Client Org.');
    expect(at2('administrator', ['subtenant'])).toBe(true);
    expect(at2('master', ['subtenant'])).toBe(true);
    expect(at2('administrator', [])).toBe(false);
    expect(at2('user', ['subtenant'])).toBe(false);
    expect(at2('agent', ['subtenant'])).toBe(false);
  });

  it('never shows Client Org. at level 3', () => {
    expect(labels(visibleMenu({ level: '3', role: 'administrator', features: ['subtenant'] }))).not.toContain(
      'SETTINGS > Account > Client Org.',
    );
  });

  it('shows Models only to a master at level 1 or 2 with omnirag', () => {
    const models = (level: MenuLevel, role: Role, features: FeatureCode[]) =>
      labels(visibleMenu({ level, role, features })).includes('Omni RAG > Models');
    expect(models('2', 'master', ['omnirag'])).toBe(true);
    expect(models('1', 'administrator', ['omnirag'])).toBe(false);
    expect(models('3', 'master', ['omnirag'])).toBe(false);
    expect(models('1', 'master', [])).toBe(false);
  });

  it('keeps SUPPORT to level 1, though its entries wait for their screens', () => {
    expect(menuRuleHolds('support', { level: '1', role: 'agent', features: [] })).toBe(true);
    expect(menuRuleHolds('support', { level: '2', role: 'master', features: [...FLAGS] })).toBe(false);
  });

  it('offers Getting Started to everyone but agents', () => {
    for (const role of ROLES) {
      expect(labels(visibleMenu({ level: '3', role, features: [] })).includes('APPS > Getting Started')).toBe(
        role !== 'agent',
      );
    }
  });

  it('offers the Inbox to every role once the tenant has live agents, and to nobody before', () => {
    for (const role of ROLES) {
      const inbox = (liveAgents?: boolean) =>
        flattenMenu(visibleMenu({ level: '3', role, features: [], liveAgents })).find(
          (entry) => entry.route === '/inbox',
        );
      expect(inbox(true)).toEqual({
        id: 'inbox',
        label: 'Inbox',
        route: '/inbox',
        icon: 'inbox',
        path: ['APPS'],
      });
      expect(inbox(false)).toBeUndefined();
      expect(inbox(undefined)).toBeUndefined();
      expect(menuRuleHolds('liveAgents', { level: '1', role, features: [...FLAGS] })).toBe(false);
      expect(menuRuleHolds('liveAgents', { level: '3', role, features: [], liveAgents: true })).toBe(true);
    }
  });

  it('ignores feature codes it does not know', () => {
    expect(visibleMenu({ level: '3', role: 'user', features: ['unknown'] })).toEqual(
      visibleMenu({ level: '3', role: 'user', features: [] }),
    );
  });

  it('does not leak rules into its output', () => {
    expect(JSON.stringify(visibleMenu({ level: '1', role: 'master', features: [...FLAGS] }))).not.toContain(
      '"rule"',
    );
  });
});

/** Every link as declared, planned ones included. */
function declaredLinks(): { route: string; planned: boolean }[] {
  const links: { route: string; planned: boolean }[] = [];
  const walk = (nodes: (typeof MENU)[number]['items']) => {
    for (const node of nodes) {
      if (node.kind === 'link') links.push({ route: node.route, planned: node.planned === true });
      else walk(node.children);
    }
  };
  for (const section of MENU) walk(section.items);
  return links;
}

describe('planned entries', () => {
  const PLANNED = [
    '/setting',
    '/ds/index',
    '/ds/knowledge',
    '/ds/index',
    '/aa/eui/config',
    '/support',
    '/documentation',
  ];

  it('keeps the nine entries whose screens are not built, marked planned', () => {
    const planned = declaredLinks()
      .filter((link) => link.planned)
      .map((link) => link.route);
    expect(planned).toEqual(PLANNED);
  });

  it('never shows a planned entry, whoever asks', () => {
    for (const level of LEVELS) {
      for (const role of ROLES) {
        const routes = flattenMenu(visibleMenu({ level, role, features: [...FLAGS] })).map((e) => e.route);
        for (const route of PLANNED) expect(routes, `${level} ${role}`).not.toContain(route);
      }
    }
  });
});

describe('menu data', () => {
  it('uses unique ids and known icon names', () => {
    const ids: string[] = [];
    const icons: string[] = [];
    const walk = (nodes: (typeof MENU)[number]['items']) => {
      for (const node of nodes) {
        ids.push(node.id);
        icons.push(node.icon);
        if (node.kind === 'group') walk(node.children);
      }
    };
    for (const section of MENU) {
      ids.push(section.id);
      walk(section.items);
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (const icon of icons) expect(MENU_ICON_NAMES).toContain(icon);
  });
});

describe('flattenMenu', () => {
  it('lists every visible link with its section and group path, in menu order', () => {
    const entries = flattenMenu(visibleMenu({ level: '3', role: 'user', features: ['omnirag'] }));
    expect(entries[1]).toEqual({
      id: 'bots-create',
      label: 'Create',
      route: '/bot/customize',
      icon: 'pencil',
      path: ['APPS', 'Bots'],
    });
    expect(entries.find((e) => e.route === '/prompt/compose')?.path).toEqual(['Omni RAG', 'Prompts']);
    expect(entries.find((e) => e.route === '/profile')?.path).toEqual(['APPS']);
    expect(entries.map((e) => e.route)).not.toContain('/model');
  });
});

describe('searchMenu', () => {
  const entries = flattenMenu(visibleMenu({ level: '1', role: 'master', features: [...FLAGS] }));
  const routes = (query: string) => searchMenu(entries, query).map((e) => e.route);

  it('finds Users by label, case-insensitively', () => {
    expect(routes('users')).toEqual(['/user']);
    expect(routes('USERS')).toEqual(['/user']);
  });

  it('ranks label prefixes first, then label matches, then path matches', () => {
    const found = routes('user');
    expect(found.slice(0, 2)).toEqual(['/profile', '/user']);
  });

  it('requires every word, searching the group path too', () => {
    expect(routes('prompts create')).toEqual(['/prompt/compose']);
    expect(routes('bots create')).toEqual(['/bot/customize']);
  });

  it('matches nothing for blank or unknown queries', () => {
    expect(routes('   ')).toEqual([]);
    expect(routes('zzz-no-such-entry')).toEqual([]);
  });

  it('only searches the entries it is given', () => {
    const least = flattenMenu(visibleMenu({ level: '3', role: 'user', features: [] }));
    expect(searchMenu(least, 'subscription')).toEqual([]);
  });
});

describe('isMenuRole', () => {
  it('accepts exactly the roles of tenancy.ts', () => {
    for (const role of ROLES) expect(isMenuRole(role)).toBe(true);
    for (const other of ['owner', 'Master', '', 'toString', '__proto__'])
      expect(isMenuRole(other)).toBe(false);
  });
});
