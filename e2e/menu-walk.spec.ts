import { flattenMenu, visibleMenu, type FeatureCode, type MenuLevel, type Role } from '@omnibot/contracts';
import type { Page } from '@playwright/test';
import { signInWithApi } from './support/identity';
import { principalFactory, type Principal } from './support/principals';
import { expect, testWithMail as test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

// The platform tenant owns example.com (ADMIN_EMAIL's domain) and holds every subscription.
const MASTER = { email: 'admin@example.com', password: 'Menu-Walk-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password } });

type OrganisationKey = 'platform' | 'partner' | 'plainPartner' | 'client' | 'bareClient';

/** Each organisation: its level, the subscriptions it holds and, for a client, its partner. */
const ORGANISATIONS: Record<
  OrganisationKey,
  { level: MenuLevel; codes: FeatureCode[]; name: string; domain: string; parent?: OrganisationKey }
> = {
  platform: {
    level: '1',
    codes: ['omnirag', 'omniassist', 'casesummary', 'subtenant'],
    name: '',
    domain: 'example.com',
  },
  partner: {
    level: '2',
    codes: ['omnirag', 'subtenant', 'casesummary'],
    name: 'Walk Partners',
    domain: 'walk-partner.test',
  },
  plainPartner: { level: '2', codes: ['casesummary'], name: 'Plain Partners', domain: 'plain-partner.test' },
  client: {
    level: '3',
    codes: ['omnirag'],
    name: 'Walk Clinics',
    domain: 'walk-client.test',
    parent: 'partner',
  },
  bareClient: {
    level: '3',
    codes: ['casesummary'],
    name: 'Bare Clinics',
    domain: 'bare-client.test',
    parent: 'partner',
  },
};

/** Every role at every level, and the subscriptions that change the menu (with and without Omni RAG, subtenant). */
const WALKERS: { organisation: OrganisationKey; role: Role }[] = [
  { organisation: 'platform', role: 'master' },
  { organisation: 'platform', role: 'administrator' },
  { organisation: 'platform', role: 'user' },
  { organisation: 'platform', role: 'agent' },
  { organisation: 'partner', role: 'administrator' },
  { organisation: 'partner', role: 'user' },
  { organisation: 'partner', role: 'agent' },
  { organisation: 'plainPartner', role: 'administrator' },
  { organisation: 'client', role: 'administrator' },
  { organisation: 'client', role: 'user' },
  { organisation: 'client', role: 'agent' },
  { organisation: 'bareClient', role: 'user' },
];

const labelOf = ({ organisation, role }: (typeof WALKERS)[number]) => {
  const { level, codes } = ORGANISATIONS[organisation];
  return `level ${level} ${role} (${codes.join(', ')})`;
};

const principals = new Map<string, Principal>();

test.beforeAll(async ({ playwright, mailbox, server }) => {
  test.setTimeout(240_000);
  const request = await playwright.request.newContext({ baseURL: server.url });
  const signIn = await request.post('/api/auth/sign-in/email', {
    data: MASTER,
    headers: { origin: server.url },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const session = (await (await request.get('/v1/session')).json()) as { tenant_id: string };
  const { createOrganisation, createPerson } = principalFactory(request, mailbox, server.url);

  const tenantIds: Partial<Record<OrganisationKey, string>> = { platform: session.tenant_id };
  for (const key of ['partner', 'plainPartner', 'client', 'bareClient'] as const) {
    const { name, domain, codes, parent } = ORGANISATIONS[key];
    tenantIds[key] = await createOrganisation({
      name,
      domain,
      codes,
      ...(parent ? { parent: defined(tenantIds[parent]) } : {}),
    });
  }
  for (const walker of WALKERS) {
    const label = labelOf(walker);
    if (walker.role === 'master') {
      principals.set(label, { label, ...MASTER, role: 'master' });
      continue;
    }
    const { domain } = ORGANISATIONS[walker.organisation];
    const email = `${walker.role}.${walker.organisation.toLowerCase()}@${domain}`;
    principals.set(
      label,
      await createPerson(defined(tenantIds[walker.organisation]), email, walker.role, label),
    );
  }
  await request.dispose();
});

/** Opens every closed group of the menu (nested ones too), so every link it holds is on screen. */
async function expandMenu(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  const closed = nav.locator('button[aria-expanded="false"]');
  while ((await closed.count()) > 0) await closed.first().click();
}

/**
 * Checks that the sidebar offers exactly `expected` (the routes the menu rules give the principal, in order), then
 * follows every one of those links; returns the dead ends met.
 */
async function walkMenu(page: Page, expected: string[]): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await page.goto('/profile');
  await expect(nav).toBeVisible();
  await expandMenu(page);
  const readLinks = () =>
    nav.getByRole('link').evaluateAll((elements) =>
      elements.map((element) => ({
        name: element.textContent.trim(),
        href: element.getAttribute('href') ?? '',
      })),
    );
  // A group's links are drawn once it has opened, a moment after its button says it is expanded.
  await expect.poll(async () => (await readLinks()).map((link) => link.href)).toEqual(expected);
  const deadEnds: string[] = [];
  for (const { name, href } of await readLinks()) {
    const link = nav.locator(`a[href="${href}"]`);
    // Groups stay open across navigations; one closes only when the sidebar is drawn again.
    if (!(await link.isVisible())) await expandMenu(page);
    await link.click();
    await expect(page).toHaveURL((url) => url.pathname === href);
    const heading = page.getByRole('main').getByRole('heading', { level: 1 }).first();
    await expect(heading).toBeVisible();
    const title = (await heading.textContent())?.trim() ?? '';
    if (title === 'Page not found' || title === 'You do not have access to this page') {
      deadEnds.push(`${name} (${href}): ${title}`);
    }
  }
  return deadEnds;
}

for (const walker of WALKERS) {
  const label = labelOf(walker);
  test(`the menu of a ${label} has no dead end`, async ({ browser, server }) => {
    test.setTimeout(180_000);
    const principal = defined(principals.get(label), label);
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await signInWithApi(page, server.url, principal.email, principal.password);
      // The sidebar shows exactly what the menu rules give this principal, and every one of those is walked.
      const { level, codes } = ORGANISATIONS[walker.organisation];
      const expected = flattenMenu(visibleMenu({ level, role: walker.role, features: codes })).map(
        (e) => e.route,
      );
      expect(await walkMenu(page, expected)).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
