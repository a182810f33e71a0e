// The people a menu can be shown to: every role at every tenant level, with the subscriptions that change the menu.
import type { APIRequestContext } from '@playwright/test';
import { APP_ID_HEADER, CONSOLE_APP_ID, type FeatureCode, type Role } from '@omnibot/contracts';
import { expect } from './server';
import { linkIn, STRONG_PASSWORD } from './identity';
import type { Mailbox } from './smtp';

export interface Principal {
  /** "level 2 administrator (omnirag, subtenant)": what the menu depends on. */
  label: string;
  email: string;
  password: string;
  role: Role;
}

interface Organisation {
  name: string;
  domain: string;
  codes: FeatureCode[];
  /** Created under this organisation's id (the master's own tenant when absent). */
  parent?: string;
}

const json = async <T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> => {
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as T;
};

/**
 * Helps build principals through the real API as the signed-in `request` context (the master): organisations,
 * then users invited by mail who choose their password through the mailed link.
 */
export function principalFactory(request: APIRequestContext, mailbox: Mailbox, baseURL: string) {
  // Account-service calls name the calling application, as the console's do.
  const headers = { origin: baseURL, [APP_ID_HEADER]: CONSOLE_APP_ID };

  async function createOrganisation({ name, domain, codes, parent }: Organisation): Promise<string> {
    const query = parent ? `?${new URLSearchParams({ tenant_id: parent }).toString()}` : '';
    const created = await json<{ account: { tenant_id: string } }>(
      await request.post(`/v1/Account${query}`, {
        headers,
        data: { name, subscriptions: codes, info: { domain } },
      }),
    );
    return created.account.tenant_id;
  }

  async function createPerson(
    tenantId: string,
    email: string,
    role: Role,
    label: string,
  ): Promise<Principal> {
    await json(
      await request.post(`/v1/Account/${tenantId}/User`, {
        headers,
        data: { email, role, info: { firstname: role, lastname: 'Walker' } },
      }),
    );
    const mail = await mailbox.waitForMail({ to: email, subject: 'invited' });
    const link = await request.get(linkIn(mail, '/api/auth/reset-password/'), { maxRedirects: 0 });
    const token = new URL(String(link.headers().location), baseURL).searchParams.get('token');
    expect(token, `reset link of ${email}`).toBeTruthy();
    await json(
      await request.post('/api/auth/reset-password', {
        headers,
        data: { token, newPassword: STRONG_PASSWORD },
      }),
    );
    return { label, email, password: STRONG_PASSWORD, role };
  }

  return { createOrganisation, createPerson };
}
