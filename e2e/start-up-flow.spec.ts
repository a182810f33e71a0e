// The start-up flow's refusal, end to end: a partner (type "2") whose credential is gone is sent back to
// /login with what could not be loaded. The account service cannot delete a credential, so this journey
// runs the server on a throwaway PostgreSQL database (TEST_DATABASE_URL, set by .ci/run) and removes the
// row there; without PostgreSQL it is skipped with a notice. The type "1" side is first-start.spec.ts.
import { randomBytes } from 'node:crypto';
import { CONSOLE_APP_ID } from '@omnibot/contracts';
import pg from 'pg';
import { registerVerified, submitSignIn } from './support/identity';
import { expect, testWithMail } from './support/server';

const baseUrl = process.env.TEST_DATABASE_URL;
const ADMIN_PASSWORD = 'Master-Test-Passw0rd-2026';

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const test = testWithMail.extend<object, { serverEnv: Record<string, string> }>({
  serverEnv: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      if (!baseUrl) {
        await use({});
        return;
      }
      const name = `omnibot_e2e_${randomBytes(6).toString('hex')}`;
      await adminQuery(`create database ${name}`);
      const url = new URL(baseUrl);
      url.pathname = `/${name}`;
      await use({ DATABASE_URL: url.toString(), ADMIN_PASSWORD });
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
    { scope: 'worker' },
  ],
});

test('a partner whose credential is missing is sent to /login with the message', async ({
  page,
  request,
  server,
  serverEnv,
  mailbox,
}) => {
  test.skip(!baseUrl, 'TEST_DATABASE_URL is not set: this journey needs PostgreSQL to remove a credential');
  const headers = { origin: server.url, 'x-app-id': CONSOLE_APP_ID };
  const signedIn = await request.post('/api/auth/sign-in/email', {
    data: { email: 'admin@example.com', password: ADMIN_PASSWORD },
    headers,
  });
  expect(signedIn.status()).toBe(200);
  const created = await request.post('/v1/Account', {
    data: { name: 'No Credential Partner', info: { domain: 'nocred.test' }, subscriptions: ['omnirag'] },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { account } = (await created.json()) as { account: { tenant_id: string } };
  await request.post('/api/auth/sign-out', { data: {}, headers });

  const email = 'nora@nocred.test';
  await registerVerified(request, mailbox, server.url, {
    email,
    name: 'Nora Nocred',
    password: ADMIN_PASSWORD,
  });
  const database = new pg.Client({ connectionString: serverEnv.DATABASE_URL });
  await database.connect();
  await database.query('delete from credentials where tenant_id = $1', [account.tenant_id]);
  await database.end();

  await page.goto('/login');
  await submitSignIn(page, email, ADMIN_PASSWORD);
  await expect(page.getByRole('alert')).toContainText("Your account's credential could not be loaded.");
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden();
  // Signed out on the server too.
  expect(await (await page.request.get('/v1/session')).json()).toBeNull();
});
