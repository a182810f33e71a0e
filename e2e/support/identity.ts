// Identity steps the journeys share: sign in through the form or the API, register a verified user.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { paths } from '../../apps/console/src/config/paths';
import { extractLinks, type Mailbox } from './smtp';

/** Passes the server's policy (at least 10 characters, zxcvbn score 3 or more). */
export const STRONG_PASSWORD = 'Velvet-Canyon-Harbor-42';

/** The one link of a mail whose path contains `pathPart`. */
export function linkIn(mail: { text: string }, pathPart: string): string {
  const link = extractLinks(mail.text).find((candidate) => candidate.includes(pathPart));
  if (!link) throw new Error(`No link with ${pathPart} in:\n${mail.text}`);
  return link;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Signed in without `?next=`: the console's landing page, the getting-started page while the organisation has steps
 * left (what a new organisation sees), the integrations overview once they are done or for an agent.
 */
export async function expectLandedAfterSignIn(
  page: Page,
  landing: 'getting-started' | 'integrations' | 'either' = 'either',
) {
  const pages = { 'getting-started': [paths.gettingStarted], integrations: [paths.integrations] };
  const expected =
    landing === 'either' ? [...pages['getting-started'], ...pages.integrations] : pages[landing];
  await expect(page).toHaveURL(new RegExp(`(${expected.map(escape).join('|')})$`));
}

/** Fills and sends the sign-in form of the page it is on. */
export async function submitSignIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in with the API from the page's browser context, so the page shares the session cookie. */
export async function signInWithApi(page: Page, baseURL: string, email: string, password: string) {
  const response = await page.request.post('/api/auth/sign-in/email', {
    data: { email, password },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Registers through the API and opens the mailed verification link; the user can then sign in. */
export async function registerVerified(
  request: APIRequestContext,
  mailbox: Mailbox,
  baseURL: string,
  user: { email: string; name: string; password?: string },
) {
  const response = await request.post('/api/auth/sign-up/email', {
    data: {
      email: user.email,
      name: user.name,
      password: user.password ?? STRONG_PASSWORD,
      callbackURL: '/login?verified=1',
    },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
  const mail = await mailbox.waitForMail({ to: user.email, subject: 'verify' });
  const verified = await request.get(linkIn(mail, '/api/auth/verify-email'), { maxRedirects: 0 });
  expect(verified.status()).toBe(302);
  expect(verified.headers().location).toMatch(/\/login\?verified=1$/);
}
