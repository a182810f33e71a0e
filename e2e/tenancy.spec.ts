import { APP_ID_HEADER, CONSOLE_APP_ID } from '@omnibot/contracts';
import type { Page } from '@playwright/test';
import { expectLandedAfterSignIn, linkIn, signInWithApi, submitSignIn } from './support/identity';
import type { Mailbox } from './support/smtp';
import { expect, testWithMail as test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

const MASTER = { email: 'admin@example.com', password: 'Tenancy-Spec-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password } });

// Each organisation owns a domain, so its people's addresses are allowed without a global allowlist.
const PARTNER = { name: 'Northwind Partners', domain: 'northwind.test' };
const PARTNER_ADMIN = {
  email: 'nadia.admin@northwind.test',
  firstname: 'Nadia',
  lastname: 'North',
  password: 'Harbor-Quill-Saffron-81',
};
const CLIENT = { name: 'Contoso Clinics', domain: 'contoso.test' };
const CLIENT_ADMIN = {
  email: 'carl.admin@contoso.test',
  firstname: 'Carl',
  lastname: 'Contoso',
  password: 'Lantern-Mosaic-Thistle-37',
};

const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

async function logout(page: Page) {
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'LOGOUT' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/**
 * Creates an organisation on /tenant/add (the page must be open) and returns its id and the credential shown once.
 */
async function createOrganisation(
  page: Page,
  organisation: { name: string; domain: string },
  codes: string[],
): Promise<{ tenantId: string; key: string; secret: string }> {
  await page.getByLabel(/^Organisation name/).fill(organisation.name);
  for (const code of codes) await page.getByRole('checkbox', { name: code }).check();
  await page.getByLabel(/^Domain/).fill(organisation.domain);
  await page.getByLabel('City').fill('Lisbon');
  await page.getByRole('button', { name: 'Create organisation' }).click();

  const reveal = page.getByRole('dialog', { name: `API credential of ${organisation.name}` });
  await expect(reveal).toContainText('It will not be shown again');
  await expect(reveal.getByRole('button', { name: 'Copy secret' })).toBeVisible();
  const values = reveal.locator('.mantine-Code-root');
  const key = defined(await values.nth(0).textContent()).trim();
  const secret = defined(await values.nth(1).textContent()).trim();
  expect(secret).toMatch(/^[^*]{20,}$/);
  await reveal.getByRole('button', { name: 'I have copied the secret' }).click();
  await expect(reveal).toBeHidden();

  await expect(page).toHaveURL(/\/tenant\/view\?tenant_id=[\w-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: organisation.name })).toBeVisible();
  // Shown once: the page it leads to does not hold the secret.
  expect(await page.content()).not.toContain(secret);
  const tenantId = defined(new URL(page.url()).searchParams.get('tenant_id'));
  return { tenantId, key, secret };
}

/** Invites an administrator on /user/add for `tenantId`. */
async function inviteAdministrator(
  page: Page,
  tenantId: string,
  person: { email: string; firstname: string; lastname: string },
) {
  await page.goto(`/user/add?tenant_id=${tenantId}`);
  await page.getByLabel(/^E-mail/).fill(person.email);
  await page.getByLabel(/^First name/).fill(person.firstname);
  await page.getByLabel(/^Last name/).fill(person.lastname);
  await page.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: /^Administrator/ }).click();
  await page.getByRole('button', { name: 'Add user and send invitation' }).click();
  await expect(
    page.getByText(`An invitation mail was sent to ${person.email}`, { exact: false }),
  ).toBeVisible();
}

/** Opens the invitation mail's link, chooses a password on /bot/password and signs in with it. */
async function acceptInvitation(
  page: Page,
  mailbox: Mailbox,
  person: { email: string; password: string; firstname: string; lastname: string },
) {
  const mail = await mailbox.waitForMail({ to: person.email, subject: 'invited' });
  await page.goto(linkIn(mail, '/api/auth/reset-password/'));
  await expect(page).toHaveURL(/\/bot\/password\?token=[\w-]+$/);
  await page.getByLabel(/^New password/).fill(person.password);
  await page.getByLabel('Confirm new password').fill(person.password);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await page.getByRole('link', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitSignIn(page, person.email, person.password);
  await expectLandedAfterSignIn(page);
  await expect(page.getByRole('banner')).toContainText(`${person.firstname} ${person.lastname}`);
}

test.describe('tenancy', () => {
  test('a master creates a partner and its administrator; the partner creates a client, assigns Omni RAG and invites its administrator, who sees Omni RAG and not Client Org.', async ({
    page,
    request,
    mailbox,
  }) => {
    test.setTimeout(180_000);

    // The master signs in and creates a partner with Client Organisations, Omni RAG and Case Summarization.
    await page.goto('/login');
    await submitSignIn(page, MASTER.email, MASTER.password);
    await expectLandedAfterSignIn(page);
    await page.goto('/tenant');
    await expect(page.getByRole('heading', { name: 'No client organisations yet' })).toBeVisible();
    await page.getByRole('link', { name: 'Add organisation' }).first().click();
    await expect(page).toHaveURL(/\/tenant\/add$/);
    // Checked before anything is sent.
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await expect(page.getByText('Enter a name')).toBeVisible();
    await expect(page.getByText('Pick at least one subscription')).toBeVisible();
    const partner = await createOrganisation(page, PARTNER, [
      'Client Organisations',
      'Omni RAG',
      'Case Summarization',
    ]);
    await expect(page.getByText('Partner organisation', { exact: true })).toBeVisible();
    const partnerSubscriptions = page.getByRole('table', { name: `Subscriptions of ${PARTNER.name}` });
    await expect(partnerSubscriptions.getByRole('row')).toHaveCount(4);

    // The secret shown once is the real one: the account service takes it as HTTP Basic key:secret.
    const basic = await request.get(`/v1/Account/${partner.tenantId}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${partner.key}:${partner.secret}`).toString('base64')}`,
        [APP_ID_HEADER]: CONSOLE_APP_ID,
      },
    });
    expect(basic.status()).toBe(200);
    expect(await basic.json()).toEqual([expect.objectContaining({ name: PARTNER.name, type: '2' })]);

    // Its administrator, invited on /user/add.
    await inviteAdministrator(page, partner.tenantId, PARTNER_ADMIN);
    await logout(page);
    await acceptInvitation(page, mailbox, PARTNER_ADMIN);

    // Type "2": Client Org. lists the own record (and, later, its children).
    await page.goto('/tenant');
    await expect(mainMenu(page).getByRole('link', { name: 'Client Org.' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    const organisations = page.getByRole('table', { name: 'Client organisations' });
    await expect(organisations.getByRole('row')).toHaveCount(2);
    await expect(organisations).toContainText(PARTNER.name);
    await expect(organisations).toContainText('Your organisation');

    // The partner's credential, created with it, is only shown masked from now on.
    await page.goto('/credential');
    await expect(page.getByLabel('Key', { exact: true })).toHaveText(partner.key);
    await expect(page.getByLabel('Secret', { exact: true })).toHaveText(`****${partner.secret.slice(-4)}`);
    expect(await page.content()).not.toContain(partner.secret);

    // The partner creates a client: Client Organisations is not offered to a client.
    await page.goto('/tenant/add');
    await expect(page.getByRole('checkbox', { name: 'Omni RAG' })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Client Organisations' })).toHaveCount(0);
    const client = await createOrganisation(page, CLIENT, ['Case Summarization']);
    await expect(page.getByText('Client organisation', { exact: true })).toBeVisible();

    // ... assigns Omni RAG on /subscription/assign ...
    await page.getByRole('link', { name: 'Assign subscriptions' }).click();
    await expect(page).toHaveURL(new RegExp(`/subscription/assign\\?tenant_id=${client.tenantId}$`));
    const omniRag = page.getByRole('checkbox', { name: 'Omni RAG' });
    await expect(omniRag).not.toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Case Summarization' })).toBeChecked();
    await omniRag.check();
    await expect(page.getByText('1 change to save.')).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const confirm = page.getByRole('dialog', { name: `Change the subscriptions of ${CLIENT.name}?` });
    await expect(confirm).toContainText('Omni RAG will be assigned.');
    await confirm.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText(`1 change saved for ${CLIENT.name}.`)).toBeVisible();
    await expect(page.getByText('No changes.')).toBeVisible();
    await expect(omniRag).toBeChecked();

    // ... and invites the client's administrator.
    await inviteAdministrator(page, client.tenantId, CLIENT_ADMIN);
    await logout(page);
    await acceptInvitation(page, mailbox, CLIENT_ADMIN);

    // The client's administrator has Omni RAG (and Case Summarization), and no Client Org.
    await page.goto('/subscription');
    const menu = mainMenu(page);
    await expect(menu.getByRole('group', { name: 'Omni RAG' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'RAGs' })).toBeVisible();
    // Case Summarization has its configuration screen; the subscription is listed below.
    await expect(menu.getByRole('group', { name: 'Case Summarization' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Subscription' })).toHaveAttribute('aria-current', 'page');
    await expect(menu.getByRole('link', { name: 'Client Org.' })).toHaveCount(0);
    const own = page.getByRole('table', { name: 'Your subscriptions' });
    await expect(own).toContainText('Omni RAG');
    await expect(own).toContainText('Case Summarization');
    // Its subscriptions are its parent's to change: no assigning from here.
    await expect(page.getByRole('link', { name: 'Assign' })).toHaveCount(0);

    // The route is guarded like the menu.
    await page.goto('/tenant');
    await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();
  });

  test('a master edits, deactivates and reactivates a partner, and manages its subscriptions on /subscription/add, /subscription/view and the overview', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const name = 'Fabrikam Resellers';
    await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
    // Created through the API (the screen is covered above): Omni RAG only.
    const created = await page.request.post('/v1/Account', {
      data: { name, info: { domain: 'fabrikam.test' }, subscriptions: ['omnirag'] },
      headers: { [APP_ID_HEADER]: CONSOLE_APP_ID },
    });
    expect(created.status(), await created.text()).toBe(201);
    const tenantId = ((await created.json()) as { account: { tenant_id: string } }).account.tenant_id;

    // Details: edited, checked inline first, saved and still there after a reload.
    await page.goto(`/tenant/view?tenant_id=${tenantId}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await page.getByLabel(/^Domain/).fill('not a domain');
    await page.getByLabel('Street').click();
    await expect(page.getByText('must be a domain such as example.com')).toBeVisible();
    await page.getByLabel(/^Domain/).fill('fabrikam.test');
    await page.getByLabel('Street').fill('1 Harbour Road');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText(`The details of ${name} were saved.`)).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Street')).toHaveValue('1 Harbour Road');

    // Deactivate and activate, each after a confirmation.
    await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
    const deactivate = page.getByRole('dialog', { name: `Deactivate ${name}?` });
    await expect(deactivate).toContainText('cannot sign in');
    await deactivate.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await expect(page.getByText(`${name} was deactivated.`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Activate', exact: true })).toBeVisible();
    await page.goto('/tenant');
    await expect(page.getByRole('table', { name: 'Client organisations' })).toContainText('Inactive');
    await page.getByRole('link', { name }).click();
    await page.getByRole('button', { name: 'Activate', exact: true }).click();
    await page
      .getByRole('dialog', { name: `Activate ${name}?` })
      .getByRole('button', { name: 'Activate', exact: true })
      .click();
    await expect(page.getByText(`${name} is active again.`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Deactivate', exact: true })).toBeVisible();

    // /subscription/add: a code it already has is not offered again; a period is whole days.
    await page.goto(`/subscription/add?tenant_id=${tenantId}`);
    await page.getByRole('combobox', { name: 'Subscription' }).click();
    // Mantine marks a disabled option with a data attribute (it cannot be picked).
    await expect(page.getByRole('option', { name: 'Omni RAG (already there)' })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    await page.getByRole('option', { name: 'Case Summarization' }).click();
    await page.getByLabel(/^Last day/).fill('2020-01-01');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await expect(page.getByText('The last day cannot be before the first')).toBeVisible();
    await page.getByLabel(/^Last day/).fill('2099-12-31');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await expect(page.getByText('Case Summarization was assigned.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/subscription/view\\?tenant_id=${tenantId}&id=[\\w-]+$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Case Summarization' })).toBeVisible();
    await expect(page.getByText('Dec 31, 2099')).toBeVisible();

    // /subscription/view: no end date any more, then revoked and reactivated.
    await page.getByLabel(/^Last day/).fill('');
    await page.getByRole('button', { name: 'Save period' }).click();
    await expect(page.getByText('The period of Case Summarization was saved.')).toBeVisible();
    await expect(page.getByText('No end', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke Case Summarization?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect(page.getByText(`Case Summarization was revoked from ${name}.`)).toBeVisible();
    await expect(page.getByText('Revoked', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page
      .getByRole('dialog', { name: 'Reactivate Case Summarization?' })
      .getByRole('button', { name: 'Reactivate' })
      .click();
    await expect(page.getByText('Case Summarization is active again.')).toBeVisible();
    await expect(page.getByText('Current', { exact: true })).toBeVisible();

    // The overview: a cell assigns after a confirmation, and revokes after another.
    await page.goto('/subscription/assign/detail');
    await page.getByRole('textbox', { name: 'Search subscriptions by organisation' }).fill('fabrikam');
    const cell = page.getByRole('checkbox', { name: `Omni Assist for ${name}` });
    await expect(cell).not.toBeChecked();
    await expect(page.getByRole('checkbox', { name: `Omni RAG for ${name}` })).toBeChecked();
    await cell.click();
    await page
      .getByRole('dialog', { name: `Assign Omni Assist to ${name}?` })
      .getByRole('button', { name: 'Assign' })
      .click();
    await expect(page.getByText(`Omni Assist was assigned to ${name}.`)).toBeVisible();
    await expect(cell).toBeChecked();
    await cell.click();
    await page
      .getByRole('dialog', { name: `Revoke Omni Assist from ${name}?` })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect(page.getByText(`Omni Assist was revoked from ${name}.`)).toBeVisible();
    await expect(cell).not.toBeChecked();
  });
});
