// Type-only imports keep this module free of zod at runtime, so the console shell can use it cheaply.
import type { FeatureCode, Role } from './tenancy';

/** Tenant level as the menu sees it: the tenant type, "3" (client) being neither level 1 nor level 2. */
export type MenuLevel = '1' | '2' | '3';

/** Icon names per menu entry; the console maps each one to an icon component. */
export const MENU_ICON_NAMES = [
  'adjustments',
  'app-window',
  'book',
  'books',
  'brain',
  'building',
  'building-community',
  'calendar-time',
  'cpu',
  'database',
  'download',
  'file',
  'folder',
  'headphones',
  'headset',
  'inbox',
  'key',
  'language',
  'lifebuoy',
  'list-details',
  'list-search',
  'map-pin',
  'message-chatbot',
  'message-circle',
  'notes',
  'pencil',
  'photo',
  'plug',
  'plug-connected',
  'prompt',
  'receipt',
  'rocket',
  'robot',
  'settings',
  'square-plus',
  'template',
  'user',
  'user-circle',
  'users',
] as const;
export type MenuIconName = (typeof MENU_ICON_NAMES)[number];

/** Conditions that hide menu entries; an entry without one is always shown. */
type MenuRule =
  | 'clientOrg'
  | 'subscription'
  | 'models'
  | 'support'
  | 'omnirag'
  | 'omniassist'
  | 'casesummary'
  | 'gettingStarted'
  | 'liveAgents';

interface MenuLink {
  kind: 'link';
  id: string;
  label: string;
  route: string;
  icon: MenuIconName;
}

interface MenuGroup {
  kind: 'group';
  id: string;
  label: string;
  icon: MenuIconName;
  children: MenuNode[];
}

export type MenuNode = MenuLink | MenuGroup;

export interface MenuSection {
  id: string;
  title: string;
  items: MenuNode[];
}

/**
 * Menu data as declared: nodes and sections may carry the rule that decides whether they are shown. A link marked
 * `planned` names a screen the console does not have yet: it is kept here so it comes back with its screen, and is
 * never shown until then.
 */
export type MenuNodeDefinition =
  | (MenuLink & { rule?: MenuRule; planned?: true })
  | (Omit<MenuGroup, 'children'> & { rule?: MenuRule; children: MenuNodeDefinition[] });

interface MenuSectionDefinition {
  id: string;
  title: string;
  rule?: MenuRule;
  items: MenuNodeDefinition[];
}

const link = (id: string, label: string, route: string, icon: MenuIconName, rule?: MenuRule) =>
  ({ kind: 'link', id, label, route, icon, ...(rule ? { rule } : {}) }) satisfies MenuNodeDefinition;

/** A menu entry whose screen is not built yet: declared, never shown (see MenuNodeDefinition). */
const planned = (id: string, label: string, route: string, icon: MenuIconName, rule?: MenuRule) =>
  ({ ...link(id, label, route, icon, rule), planned: true }) satisfies MenuNodeDefinition;

const group = (
  id: string,
  label: string,
  icon: MenuIconName,
  children: MenuNodeDefinition[],
  rule?: MenuRule,
): MenuNodeDefinition => ({ kind: 'group', id, label, icon, children, ...(rule ? { rule } : {}) });

/** The whole sidebar menu, before any visibility rule is applied. */
export const MENU: readonly MenuSectionDefinition[] = [
  {
    id: 'apps',
    title: 'APPS',
    items: [
      link('getting-started', 'Getting Started', '/getting-started', 'rocket', 'gettingStarted'),
      link('inbox', 'Inbox', '/inbox', 'inbox', 'liveAgents'),
      group('bots', 'Bots', 'robot', [
        link('bots-create', 'Create', '/bot/customize', 'pencil'),
        link('bots-manage', 'Manage', '/bot/manage', 'list-details'),
        link('bots-install', 'Install', '/bot/install', 'download'),
        link('bots-welcome-message', 'Welcome Message', '/bot/config/message', 'message-circle'),
        link('bots-language-rag', 'Language RAG', '/bot/config/rag', 'language', 'omnirag'),
      ]),
      group('bot-templates', 'Bot Templates', 'template', [
        link('bot-templates-create', 'Create', '/bot/template/create', 'square-plus'),
        link('bot-templates-manage', 'Manage', '/bot/template/manage', 'list-details'),
      ]),
      group('file-manager', 'File Manager', 'folder', [
        link('file-manager-files', 'Files', '/file', 'file'),
        link('file-manager-images', 'Images', '/bot/gallery', 'photo'),
      ]),
      link('user-profile', 'User Profile', '/profile', 'user-circle'),
    ],
  },
  {
    id: 'settings',
    title: 'SETTINGS',
    items: [
      group('account', 'Account', 'building', [
        link('account-service-address', 'Service Address', '/account', 'map-pin'),
        link('account-credentials', 'Credentials', '/credential', 'key'),
        link('account-client-org', 'Client Org.', '/tenant', 'building-community', 'clientOrg'),
        link('account-subscription', 'Subscription', '/subscription', 'receipt', 'subscription'),
        link('account-scheduler', 'Scheduler', '/schedule', 'calendar-time'),
        planned('account-settings', 'Settings', '/setting', 'settings'),
      ]),
      group('user', 'User', 'users', [link('user-users', 'Users', '/user', 'user')]),
      group('integration', 'Integration', 'plug', [
        link('integration-all', 'All Integrations', '/bot/integration/list', 'plug-connected'),
        link('integration-chatbot', 'Chatbot', '/bot/integration/chatbot', 'message-chatbot'),
        link('integration-contact-center', 'Contact Center', '/bot/integration/ccaas', 'headset'),
      ]),
    ],
  },
  {
    id: 'omni-rag',
    title: 'Omni RAG',
    rule: 'omnirag',
    items: [
      link('omni-rag-rags', 'RAGs', '/rag', 'brain'),
      link('omni-rag-index', 'Index', '/index', 'list-search'),
      link('omni-rag-knowledge', 'Knowledge Base', '/knowledge', 'books'),
      group('omni-rag-prompts', 'Prompts', 'prompt', [
        link('omni-rag-prompts-create', 'Create', '/prompt/compose', 'square-plus'),
        link('omni-rag-prompts-manage', 'Manage', '/prompt', 'list-details'),
      ]),
      link('omni-rag-models', 'Models', '/model', 'cpu', 'models'),
    ],
  },
  {
    id: 'omni-assist',
    title: 'Omni Assist',
    rule: 'omniassist',
    items: [
      group('omni-assist-datastore', 'Datastore', 'database', [
        planned('omni-assist-datastore-index', 'Index', '/ds/index', 'list-search'),
        planned('omni-assist-datastore-knowledge', 'Knowledge', '/ds/knowledge', 'books'),
      ]),
      group('omni-assist-configuration', 'Configuration', 'adjustments', [
        planned('omni-assist-configuration-audio-hook', 'Audio Hook', '/ds/index', 'headphones'),
        planned('omni-assist-configuration-web-ui', 'Web UI', '/aa/eui/config', 'app-window'),
      ]),
    ],
  },
  {
    id: 'case-summarization',
    title: 'Case Summarization',
    rule: 'casesummary',
    items: [link('case-summarization-configuration', 'Configuration', '/cs/config', 'notes')],
  },
  {
    id: 'support',
    title: 'SUPPORT',
    rule: 'support',
    items: [
      planned('support-support', 'Support', '/support', 'lifebuoy'),
      planned('support-guides', 'Guides', '/documentation', 'book'),
    ],
  },
];

export interface MenuContext {
  level: MenuLevel;
  role: Role;
  features: readonly (FeatureCode | (string & {}))[];
  /** Whether a bot of the tenant hands conversations over to the agent inbox; unknown (undefined) counts as no. */
  liveAgents?: boolean;
}

// A Record over Role, so a role added to ROLES fails typecheck here until the menu knows about it.
const MENU_ROLES: Record<Role, true> = { master: true, administrator: true, user: true, agent: true };

/** Narrows a stored role string to a Role (without zod, so the console shell does not load it). */
export function isMenuRole(value: string): value is Role {
  return Object.hasOwn(MENU_ROLES, value);
}

const isAdministratorOrMaster = (role: Role) => role === 'administrator' || role === 'master';

/** One predicate per visibility condition. */
const RULES: Record<MenuRule, (context: MenuContext) => boolean> = {
  // Read as "level 1, or (level 2 with subtenant and role administrator/master)": the comma closes the level-1 case.
  clientOrg: ({ level, role, features }) =>
    level === '1' || (level === '2' && features.includes('subtenant') && isAdministratorOrMaster(role)),
  subscription: ({ role }) => isAdministratorOrMaster(role),
  models: ({ level, role }) => role === 'master' && (level === '1' || level === '2'),
  support: ({ level }) => level === '1',
  omnirag: ({ features }) => features.includes('omnirag'),
  omniassist: ({ features }) => features.includes('omniassist'),
  casesummary: ({ features }) => features.includes('casesummary'),
  // Every step of getting started builds something; agents answer visitors and build nothing.
  gettingStarted: ({ role }) => role !== 'agent',
  // Every role answers visitors, agents above all; the inbox only makes sense once a bot hands over to it.
  liveAgents: ({ liveAgents }) => liveAgents === true,
};

/** Whether one menu rule holds; the API checks access with the same predicates the menu uses. */
export function menuRuleHolds(rule: MenuRule, context: MenuContext): boolean {
  return RULES[rule](context);
}

const isShown = (rule: MenuRule | undefined, context: MenuContext) =>
  rule === undefined || RULES[rule](context);

function visibleNodes(nodes: readonly MenuNodeDefinition[], context: MenuContext): MenuNode[] {
  const result: MenuNode[] = [];
  for (const node of nodes) {
    if (!isShown(node.rule, context)) continue;
    if (node.kind === 'link') {
      if (node.planned) continue;
      result.push({ kind: 'link', id: node.id, label: node.label, route: node.route, icon: node.icon });
      continue;
    }
    const children = visibleNodes(node.children, context);
    if (children.length > 0) {
      result.push({ kind: 'group', id: node.id, label: node.label, icon: node.icon, children });
    }
  }
  return result;
}

/**
 * The sidebar menu a user may see: drops entries whose rule fails for the tenant level, the user's role, the
 * tenant's feature codes and whether it has live agents, and any group or section left empty.
 */
export function visibleMenu(context: MenuContext): MenuSection[] {
  const sections: MenuSection[] = [];
  for (const section of MENU) {
    if (!isShown(section.rule, context)) continue;
    const items = visibleNodes(section.items, context);
    if (items.length > 0) sections.push({ id: section.id, title: section.title, items });
  }
  return sections;
}

/** One menu link as the menu search sees it; `path` holds the section title and any group labels. */
export interface MenuSearchEntry {
  id: string;
  label: string;
  route: string;
  icon: MenuIconName;
  path: string[];
}

/** Every link of a (visible) menu, in menu order, with the section and groups that lead to it. */
export function flattenMenu(sections: readonly MenuSection[]): MenuSearchEntry[] {
  const entries: MenuSearchEntry[] = [];
  const walk = (nodes: readonly MenuNode[], path: string[]) => {
    for (const node of nodes) {
      if (node.kind === 'link') {
        entries.push({ id: node.id, label: node.label, route: node.route, icon: node.icon, path });
      } else {
        walk(node.children, [...path, node.label]);
      }
    }
  };
  for (const section of sections) walk(section.items, [section.title]);
  return entries;
}

/**
 * Menu search: every word of `query` must appear (case-insensitively) in the entry's label, path or
 * route. Entries whose label starts with the query come first, then label matches, then the rest,
 * each in menu order. An empty query matches nothing.
 */
export function searchMenu(entries: readonly MenuSearchEntry[], query: string): MenuSearchEntry[] {
  const needle = query.trim().toLowerCase();
  const words = needle.split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const ranked: { entry: MenuSearchEntry; rank: number }[] = [];
  for (const entry of entries) {
    const label = entry.label.toLowerCase();
    const haystack = [label, ...entry.path.map((part) => part.toLowerCase()), entry.route.toLowerCase()].join(
      ' ',
    );
    if (!words.every((word) => haystack.includes(word))) continue;
    const rank = label.startsWith(needle) ? 0 : label.includes(needle) ? 1 : 2;
    ranked.push({ entry, rank });
  }
  // Array.prototype.sort is stable, so equal ranks keep menu order.
  return ranked.sort((a, b) => a.rank - b.rank).map(({ entry }) => entry);
}
