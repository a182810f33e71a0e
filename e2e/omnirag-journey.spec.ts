import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { signInWithApi } from './support/identity';
import { expect, REPO_ROOT, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';
import {
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
} from '../apps/server/src/test/openai-compatible-server';

// The platform master's organisation holds the omnirag subscription and may add model connections on /model.
const MASTER = { email: 'admin@example.com', password: 'Omnirag-Journey-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password, FETCH_ALLOW_ADDRESSES: '127.0.0.1' } });

// Three pages, one sentence each: page two says the ferry leaves at noon.
const PDF = readFileSync(`${REPO_ROOT}apps/server/src/modules/knowledge/ingest/fixtures/three-pages.pdf`);
const QUESTION = 'When does the ferry leave?';
const FIRST = 'Answer {{question}} from the context.\n{{context}}';
const SECOND = 'Answer {{question}} briefly in {{language}}.\n{{context}}';
const MODEL_ANSWER = ['The ferry ', 'leaves at ', 'noon [1].'];

// A local model server speaking the OpenAI chat-completions protocol: POST /v1/chat/completions answers JSON,
// or Server-Sent Events (`data: {choices:[{delta}]}` chunks ending with `data: [DONE]`) when `stream: true`.
let provider: OpenAICompatibleServer;
test.beforeEach(async ({ page, baseURL }) => {
  provider = await startOpenAICompatibleServer({ reply: MODEL_ANSWER });
  await signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password);
});
test.afterEach(async () => provider.close());

/** Fails when anything on the page sticks out sideways (checked only on the narrow run). */
async function expectFitsWidth(page: Page, narrow: boolean) {
  if (!narrow) return;
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `horizontal overflow on ${page.url()}`).toBeLessThanOrEqual(0);
}

/** Picks `option` in the Mantine select or multi-select labelled `label`. */
async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

async function createKnowledgeWithPdf(page: Page, name: string, file: string, narrow: boolean) {
  await page.goto('/knowledge/add');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await expectFitsWidth(page, narrow);
  await page.getByRole('button', { name: 'Create knowledge base' }).click();
  await expect(page).toHaveURL(/\/knowledge\/view\?id=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

  await page.getByRole('tab', { name: 'File' }).click();
  await page
    .getByLabel('Choose files to upload')
    .setInputFiles({ name: file, mimeType: 'application/pdf', buffer: PDF });
  // The finished upload fills in the path of the stored file.
  await expect(page.getByRole('textbox', { name: 'File path in your storage' })).toHaveValue(
    `knowledge/${file}`,
  );
  await expectFitsWidth(page, narrow);
  await page.getByRole('button', { name: 'Add source' }).click();
  // A file source is titled by its file name.
  await expect(page.getByText(`"${file}" was added and is being indexed.`)).toBeVisible();
  // The source list follows the ingestion job on its own: no reload.
  await expect(page.getByText('Ready', { exact: true })).toBeVisible();
  await expectFitsWidth(page, narrow);
}

async function createIndexAndTestRetrieval(
  page: Page,
  names: { index: string; knowledge: string; file: string },
  narrow: boolean,
) {
  const name = names.index;
  await page.goto('/index/add');
  await expect(page.getByRole('heading', { name: 'Create index', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await choose(page, 'Knowledge bases', names.knowledge);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('radio', { name: /^Keyword/ })).toBeChecked();
  await expectFitsWidth(page, narrow);
  await page.getByRole('button', { name: 'Create index' }).click();
  await expect(page.getByText(`Index "${name}" was created.`)).toBeVisible();
  await expect(page).toHaveURL(/\/index\/view\?id=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

  const test = page.getByRole('form', { name: 'Retrieval test' });
  await test.getByRole('textbox', { name: 'Query' }).fill(QUESTION);
  await test.getByRole('button', { name: 'Test retrieval' }).click();
  const hit = page.getByRole('listitem', { name: 'Hit 1' });
  await expect(hit.getByLabel('Rank 1')).toBeVisible();
  await expect(hit.getByText(/^Score \d+\.\d+$/)).toBeVisible();
  await expect(hit.getByText(names.file, { exact: true })).toBeVisible();
  await expect(hit).toContainText('the ferry leaves at noon');
  await expectFitsWidth(page, narrow);
}

/** Composes a prompt, saves a second version and sees them side by side; resolves with the prompt's page. */
async function composeTwoVersions(page: Page, name: string, narrow: boolean): Promise<string> {
  await page.goto('/prompt/compose');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Template' }).fill(FIRST);
  await expect(page.getByTestId('prompt-preview')).toContainText('Answer What are your opening hours?');
  await expectFitsWidth(page, narrow);
  await page.getByRole('button', { name: 'Save prompt' }).click();
  await expect(page.getByText(`Prompt "${name}" was saved as version 1.`)).toBeVisible();
  await expect(page).toHaveURL(/\/prompt\/detail\/[0-9a-f-]{36}$/);
  // The detail page has loaded the prompt and its versions before the template is changed, so nothing that
  // arrives later starts the form again from version 1.
  await expect(page.getByText('Version 1 is in use.')).toBeVisible();
  const template = page.getByRole('textbox', { name: 'Template' });
  await expect(template).toHaveValue(FIRST);
  await template.fill(SECOND);
  await expect(template).toHaveValue(SECOND);
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await expect(page.getByText('Saved as version 2.')).toBeVisible();
  const before = page.getByRole('region', { name: 'Version 1', exact: true });
  const after = page.getByRole('region', { name: 'Version 2 (current)' });
  await expect(before.locator('li[data-diff="removed"]')).toHaveText([
    /removed: Answer \{\{question\}\} from the context\.$/,
  ]);
  await expect(after.locator('li[data-diff="added"]')).toHaveText([
    /added: Answer \{\{question\}\} briefly in \{\{language\}\}\.$/,
  ]);
  const [left, right] = [defined(await before.boundingBox()), defined(await after.boundingBox())];
  if (narrow) expect(right.y).toBeGreaterThanOrEqual(left.y + left.height);
  else expect(right.x).toBeGreaterThanOrEqual(left.x + left.width);
  await expectFitsWidth(page, narrow);
  return new URL(page.url()).pathname;
}

/** Asks the RAG's test box and returns the newest turn once its answer is complete. */
async function ask(page: Page) {
  await page.getByRole('textbox', { name: 'Question' }).fill(QUESTION);
  await page.getByRole('button', { name: 'Ask' }).click();
  const turn = page.getByTestId('test-turn').last();
  await expect(turn.getByLabel('Timings')).toHaveText(/^Retrieve \d+ ms · Generate \d+ ms · Total \d+ ms$/);
  return turn;
}

async function createRagAndAsk(
  page: Page,
  names: { rag: string; index: string; prompt: string; model: string; file: string },
  narrow: boolean,
) {
  await page.goto('/rag/add');
  await expect(page.getByRole('heading', { name: 'Add RAG', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(names.rag);
  await choose(page, 'Index', names.index);
  await choose(page, 'Prompt', names.prompt);
  await expect(page.getByRole('combobox', { name: 'Chat model', exact: true })).toHaveValue('');
  await expectFitsWidth(page, narrow);
  await page.getByRole('button', { name: 'Create RAG' }).click();
  await expect(page.getByText(`RAG "${names.rag}" was created. Try it in its test box.`)).toBeVisible();
  await expect(page).toHaveURL(/\/rag\/view\?id=[0-9a-f-]{36}$/);
  const ragPage = page.url();

  // Without a chat model the answer is sentences quoted from the sources.
  const extractive = await ask(page);
  await expect(extractive.getByText('Extractive', { exact: true })).toBeVisible();
  await expect(extractive).toContainText('the ferry leaves at noon');
  await expect(extractive.getByRole('list', { name: 'Sources' })).toContainText(`[1] ${names.file}`);
  await expectFitsWidth(page, narrow);

  await page.goto('/model');
  await page.getByRole('button', { name: 'Add connection' }).first().click();
  const form = page.getByRole('form', { name: 'New model connection' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(names.model);
  await form.getByRole('textbox', { name: 'Base URL' }).fill(provider.baseUrl);
  await form.getByRole('textbox', { name: 'Model name' }).fill('journey-chat');
  await form.getByLabel('API key', { exact: true }).fill('sk-journey-key-0123456789');
  await expectFitsWidth(page, narrow);
  await form.getByRole('button', { name: 'Add connection' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('button', { name: `Test ${names.model}` }).first()).toBeVisible();
  await expectFitsWidth(page, narrow);

  await page.goto(ragPage);
  await choose(page, 'Chat model', `${names.model} (journey-chat)`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('The RAG was saved.')).toBeVisible();
  await expect(page.getByText(`Model: ${names.model}`)).toBeVisible();

  const streamed = page.waitForResponse((response) =>
    /\/v1\/rags\/[0-9a-f-]{36}\/answer$/.test(response.url()),
  );
  const answered = await ask(page);
  // The console asked for the answer as a stream and received Server-Sent Events (a streamed fetch body is not
  // kept by the browser, so its events are not read back here).
  expect((await streamed).headers()['content-type']).toMatch(/^text\/event-stream/);
  await expect(answered.getByText('Model', { exact: true })).toBeVisible();
  await expect(answered).toContainText('The ferry leaves at noon [1].');
  await expect(answered.getByRole('link', { name: 'Source 1' })).toBeVisible();
  await expect(answered.getByRole('list', { name: 'Sources' })).toContainText(`[1] ${names.file}`);
  // The answer came from the provider as a stream of chunks, with the retrieved passage in the prompt.
  const chat = provider.requests.filter((request) => request.path === '/chat/completions').at(-1);
  const body = defined(chat).body as { stream?: boolean; messages?: { content: string }[] };
  expect(body.stream).toBe(true);
  expect(JSON.stringify(body.messages)).toContain('the ferry leaves at noon');
  await expectFitsWidth(page, narrow);
}

async function journey(page: Page, tag: string, narrow: boolean) {
  const names = {
    knowledge: `${tag} harbour`,
    index: `${tag} harbour index`,
    prompt: `${tag} harbour prompt`,
    rag: `${tag} harbour RAG`,
    model: `${tag} chat`,
    file: `${tag.toLowerCase()}-harbour-guide.pdf`,
  };
  await createKnowledgeWithPdf(page, names.knowledge, names.file, narrow);
  await createIndexAndTestRetrieval(page, names, narrow);
  const promptPath = await composeTwoVersions(page, names.prompt, narrow);
  await createRagAndAsk(page, names, narrow);

  await page.goto(promptPath);
  const usedBy = page.getByRole('list', { name: 'RAGs using this prompt' });
  await expect(usedBy.getByRole('link', { name: names.rag })).toBeVisible();
  await expect(usedBy).toContainText(`(${names.index}, ${names.model})`);
  await expectFitsWidth(page, narrow);
}

test.describe('the Omni RAG journey', () => {
  test('PDF source, keyword index, two prompt versions, extractive then model answers (desktop, light)', async ({
    page,
  }) => {
    await page.addInitScript(() => window.localStorage.setItem('appMode', 'light'));
    await journey(page, 'Desk', false);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  test.describe('on a 375 px wide screen in dark mode', () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test('the same journey works and no page is wider than the screen', async ({ page }) => {
      await page.addInitScript(() => window.localStorage.setItem('appMode', 'dark'));
      await journey(page, 'Phone', true);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    });
  });
});
