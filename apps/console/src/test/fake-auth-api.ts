import { vi } from 'vitest';

const NOW = '2026-01-01T00:00:00.000Z';

interface FakeAuthApiOptions {
  /** Signed in as this user (GET /v1/session), or signed out (200 null). */
  signedIn?: boolean;
  mustChangePassword?: boolean;
  tenantType?: '1' | '2' | '3';
  /** The signed-in user's role; administrator unless told otherwise. */
  role?: 'master' | 'administrator' | 'user' | 'agent';
  hasCredential?: boolean;
  /** Answers for other requests, by "METHOD /path"; return undefined to fall through to a 404. */
  handle?: (method: string, path: string, body: unknown) => Response | undefined;
}

/** The password the fake sign-in accepts for grace@acme.test. */
export const FAKE_PASSWORD = 'Correct-Horse-Battery-9';

const pathOf = (input: RequestInfo | URL) =>
  new URL(
    typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
    'http://localhost',
  ).pathname;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/**
 * Stubs `fetch` with a tiny version of the identity and account-service API: the signed-in user Grace Hopper of
 * the tenant "Acme Support" (type 2 unless told otherwise) with a credential and a current omnirag subscription.
 */
export function stubAuthApi(options: FakeAuthApiOptions = {}) {
  const state = { signedIn: options.signedIn ?? false };
  const tenantType = options.tenantType ?? '2';
  const hasCredential = options.hasCredential ?? true;
  const user = {
    user_id: 'u1',
    email: 'grace@acme.test',
    name: 'Grace Hopper',
    tenant_id: 't-acme',
    role: options.role ?? 'administrator',
    must_change_password: options.mustChangePassword ?? false,
  };
  const routes: Record<string, (body: unknown) => Response> = {
    'POST /api/auth/sign-in/email': (body) => {
      const { email, password } = body as { email: string; password: string };
      if (email !== user.email || password !== FAKE_PASSWORD)
        return json(401, {
          code: 'auth/invalid-credential',
          message: 'Email or Password not correct. Please try again',
        });
      state.signedIn = true;
      return json(200, { status: true, user: { id: user.user_id, email: user.email, name: user.name } });
    },
    'GET /v1/session': () => json(200, state.signedIn ? user : null),
    'POST /api/auth/sign-out': () => {
      state.signedIn = false;
      return json(200, { success: true });
    },
    'GET /v1/Account/t-acme/User/grace%40acme.test': () =>
      json(200, [
        {
          id: 'u1',
          tenant_id: 't-acme',
          is_active: true,
          email: user.email,
          username: user.name,
          role: user.role,
          address: {},
          info: { firstname: 'Grace', lastname: 'Hopper' },
          must_change_password: false,
          email_verified: true,
          created_by: null,
          created_at: NOW,
          updated_by: null,
          updated_at: NOW,
        },
      ]),
    'GET /v1/Account/t-acme': () =>
      json(200, [
        {
          id: 'a1',
          tenant_id: 't-acme',
          parent_tenant_id: tenantType === '1' ? null : 'platform',
          name: 'Acme Support',
          type: tenantType,
          is_active: true,
          address: {},
          info: { domain: 'acme.test' },
          created_by: null,
          updated_by: null,
          created_at: NOW,
          updated_at: NOW,
        },
      ]),
    'GET /v1/Account/t-acme/credential': () =>
      json(
        200,
        hasCredential
          ? { code: 200, key: 'k1', secret: '****abcd' }
          : { code: 404, message: 'No credential' },
      ),
    'GET /v1/Account/t-acme/Subscription': () =>
      json(200, {
        code: 200,
        items: [
          {
            id: 's1',
            tenant_id: 't-acme',
            info: { code: 'omnirag', name: 'Omni RAG' },
            status: 'active',
            starts_at: NOW,
            ends_at: null,
            is_current: true,
          },
        ],
      }),
  };

  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const pathname = pathOf(input);
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const custom = options.handle?.(method, pathname, body);
    if (custom) return custom;
    const route = routes[`${method} ${pathname}`];
    return route
      ? route(body)
      : json(404, { code: 'not_found', message: `No route for ${method} ${pathname}` });
  });
  vi.stubGlobal('fetch', fetchMock);

  /** The "METHOD /path" of every call so far. */
  const calls = () =>
    fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${pathOf(input)}`);
  /** The JSON body of the first call to `path`. */
  const bodyOf = (path: string): unknown => {
    const call = fetchMock.mock.calls.find(([input]) => pathOf(input) === path);
    const body = call?.[1]?.body;
    return typeof body === 'string' ? JSON.parse(body) : undefined;
  };
  return { fetchMock, calls, bodyOf, user };
}
