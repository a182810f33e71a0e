import type { Page } from '@playwright/test';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';
import {
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
} from '../apps/server/src/test/openai-compatible-server';

// /model is for a master of a level-1 organisation: the platform's administrator.
const MASTER = { email: 'admin@example.com', password: 'Models-Spec-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password, FETCH_ALLOW_ADDRESSES: '127.0.0.1' } });

const API_KEY = 'sk-e2e-model-key-0123456789-LAST';

// A local model server speaking the OpenAI HTTP protocol (POST /v1/chat/completions, JSON and Server-Sent
// Events; POST /v1/embeddings), switchable into failure modes such as 401 "Incorrect API key provided.".
let provider: OpenAICompatibleServer;
test.beforeEach(async ({ page, baseURL }) => {
  provider = await startOpenAICompatibleServer();
  await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
});
test.afterEach(async () => provider.close());

async function addChatConnection(page: Page, name: string) {
  await page.getByRole('button', { name: 'Add connection' }).first().click();
  const form = page.getByRole('form', { name: 'New model connection' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await form.getByRole('textbox', { name: 'Base URL' }).fill(provider.baseUrl);
  await form.getByRole('textbox', { name: 'Model name' }).fill('test-chat-model');
  await form.getByLabel('API key', { exact: true }).fill(API_KEY);
  await form.getByRole('button', { name: 'Add connection' }).click();
  await expect(form).toBeHidden();
}

test.describe('model connections', () => {
  test('add a chat connection, test it ok and refused, only its mask after a reload, delete it', async ({
    page,
  }) => {
    await page.addInitScript(() => window.localStorage.setItem('appMode', 'light'));
    await page.goto('/model');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await expect(page.getByRole('heading', { name: 'No model connections yet' })).toBeVisible();

    await addChatConnection(page, 'Local chat');
    const mask = page.getByLabel('API key of Local chat');
    await expect(mask).toHaveText('****LAST');
    expect(await page.content()).not.toContain(API_KEY);

    await page.getByRole('button', { name: 'Test Local chat' }).click();
    await expect(page.getByRole('status', { name: 'Local chat: Connection works' })).toContainText(
      /The model answered in \d+ ms\./,
    );
    // The key reached the provider, from the server, as a bearer token.
    const chat = provider.requests.filter((request) => request.path === '/chat/completions');
    expect(chat.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`);

    provider.failure = 'unauthorized';
    await page.getByRole('button', { name: 'Test Local chat' }).click();
    const refused = page.getByRole('alert', { name: 'Local chat: Connection failed' });
    await expect(refused).toContainText('The provider refused the API key.');

    await page.reload();
    await expect(page.getByLabel('API key of Local chat')).toHaveText('****LAST');
    await page.getByRole('button', { name: 'Edit Local chat' }).click();
    const edit = page.getByRole('form', { name: 'Edit Local chat' });
    await expect(edit.getByLabel('Stored API key')).toHaveText('****LAST');
    await expect(edit.getByLabel('New API key')).toBeHidden();
    expect(await page.content()).not.toContain(API_KEY);
    await edit.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Delete Local chat' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Local chat?' });
    await confirm.getByRole('button', { name: 'Delete connection' }).click();
    await expect(page.getByRole('heading', { name: 'No model connections yet' })).toBeVisible();
  });

  test.describe('on a 375 px wide screen in dark mode', () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test('the list becomes cards and a connection is added and tested', async ({ page }) => {
      await page.addInitScript(() => window.localStorage.setItem('appMode', 'dark'));
      await page.goto('/model');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
      await expect(page.getByRole('heading', { name: 'No model connections yet' })).toBeVisible();

      await addChatConnection(page, 'Phone chat');
      const cards = page.getByRole('list', { name: 'Model connections' });
      await expect(cards.getByRole('listitem')).toHaveCount(1);
      await expect(cards.getByLabel('API key of Phone chat')).toHaveText('****LAST');

      await cards.getByRole('button', { name: 'Test Phone chat' }).click();
      await expect(page.getByRole('status', { name: 'Phone chat: Connection works' })).toBeVisible();
      // Nothing sticks out sideways at this width.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    });
  });
});
