import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { ModelPanel } from './model-panel';

const NOW = '2026-01-01T00:00:00.000Z';
const API_KEY = 'sk-test-key-typed-once-WXYZ';
const ORGANISATIONS = [{ value: 't-client', label: 'Client Co' }];

interface StoredModel {
  id: string;
  name: string;
  kind: 'chat' | 'embedding' | 'speech';
  base_url: string;
  model_name: string;
  key: string | null;
  max_tokens: number;
  temperature: number;
  dimensions: number | null;
  sharing: { all: boolean; tenant_ids: string[] };
}

/** The model connections API in memory: keys are kept but only their mask is ever answered. */
function stubModelsApi(
  initial: StoredModel[] = [],
  test: (model: StoredModel) => Response = () => json(200, { ok: true, latency_ms: 42 }),
) {
  const models = [...initial];
  const present = (model: StoredModel) => ({
    id: model.id,
    tenant_id: 't-acme',
    name: model.name,
    kind: model.kind,
    base_url: model.base_url,
    model_name: model.model_name,
    api_key: { set: model.key !== null, last4: model.key ? model.key.slice(-4) : null },
    max_tokens: model.max_tokens,
    temperature: model.temperature,
    dimensions: model.dimensions,
    sharing: model.sharing,
    created_by: 'u1',
    updated_by: 'u1',
    created_at: NOW,
    updated_at: NOW,
  });
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'GET' && path === '/v1/models') return json(200, { items: models.map(present) });
      if (method === 'POST' && path === '/v1/models') {
        const input = body as Omit<StoredModel, 'id' | 'key'> & { api_key?: string };
        const model: StoredModel = {
          ...input,
          id: `00000000-0000-4000-8000-00000000000${models.length + 1}`,
          key: input.api_key ?? null,
          dimensions: input.dimensions ?? null,
        };
        models.push(model);
        return json(201, present(model));
      }
      const match = /^\/v1\/models\/([^/]+)(\/test)?$/.exec(path);
      const model = models.find((candidate) => candidate.id === match?.[1]);
      if (!match || !model) return undefined;
      if (method === 'POST' && match[2]) return test(model);
      if (method === 'PATCH') {
        const { api_key: apiKey, ...rest } = body as Partial<StoredModel> & { api_key?: string | null };
        Object.assign(model, rest);
        if (apiKey !== undefined) model.key = apiKey;
        return json(200, present(model));
      }
      if (method === 'DELETE') {
        models.splice(models.indexOf(model), 1);
        return new Response(null, { status: 204 });
      }
      return undefined;
    },
  });
}

/** The JSON bodies sent with `method`, in order. */
function bodiesOf(api: ReturnType<typeof stubModelsApi>, method: string): unknown[] {
  return api.fetchMock.mock.calls
    .filter(([, init]) => init?.method === method)
    .map(([, init]): unknown => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
}

const stored = (overrides: Partial<StoredModel> = {}): StoredModel => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Support GPT',
  kind: 'chat',
  base_url: 'https://llm.example.test/v1',
  model_name: 'gpt-test',
  key: 'sk-stored-key-ABCD',
  max_tokens: 1024,
  temperature: 0.7,
  dimensions: null,
  sharing: { all: true, tenant_ids: [] },
  ...overrides,
});

let client: QueryClient | undefined;
function CacheProbe() {
  const queryClient = useQueryClient();
  useEffect(() => {
    client = queryClient;
  }, [queryClient]);
  return null;
}

const renderPanel = () =>
  renderRoute(
    <>
      <ModelPanel organisations={ORGANISATIONS} />
      <CacheProbe />
    </>,
  );

async function openAddForm() {
  await userEvent
    .setup()
    .click((await screen.findAllByRole('button', { name: 'Add connection' }))[0] ?? document.body);
  return screen.findByRole('form', { name: 'New model connection' });
}

async function fillValid(form: HTMLElement, user = userEvent.setup()) {
  await fill(user, within(form).getByRole('textbox', { name: 'Name' }), 'Support GPT');
  await fill(user, within(form).getByRole('textbox', { name: 'Base URL' }), 'https://llm.example.test/v1');
  await fill(user, within(form).getByRole('textbox', { name: 'Model name' }), 'gpt-test');
}

describe('ModelPanel', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    client = undefined;
  });

  it('tells the master to add a connection when there is none', async () => {
    stubModelsApi();
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'No model connections yet' })).toBeInTheDocument();
    expect(screen.getByText(/Add a connection to a chat model/)).toBeInTheDocument();
  });

  it('refuses a base URL that is not http(s) and sends nothing', async () => {
    const api = stubModelsApi();
    const user = userEvent.setup();
    renderPanel();
    const form = await openAddForm();
    await fillValid(form, user);
    const url = within(form).getByRole('textbox', { name: 'Base URL' });
    await user.clear(url);
    await fill(user, url, 'ftp://llm.example.test/v1');
    await user.click(within(form).getByRole('button', { name: 'Add connection' }));

    expect(
      await within(form).findByText('The base URL must be an http(s) URL without a user name or password'),
    ).toBeInTheDocument();
    expect(api.calls()).not.toContain('POST /v1/models');
  });

  it('refuses a temperature above 2 and sends nothing', async () => {
    const api = stubModelsApi();
    const user = userEvent.setup();
    renderPanel();
    const form = await openAddForm();
    await fillValid(form, user);
    const temperature = within(form).getByRole('textbox', { name: 'Temperature' });
    await user.clear(temperature);
    await fill(user, temperature, '3');
    await user.click(within(form).getByRole('button', { name: 'Add connection' }));

    expect(await within(form).findByText('The temperature must be between 0 and 2')).toBeInTheDocument();
    expect(api.calls()).not.toContain('POST /v1/models');

    // Back in range, the same form goes through with the defaults for max tokens.
    await user.clear(temperature);
    await fill(user, temperature, '0.2');
    await user.click(within(form).getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(api.calls()).toContain('POST /v1/models'));
    expect(bodiesOf(api, 'POST')[0]).toEqual({
      name: 'Support GPT',
      kind: 'chat',
      base_url: 'https://llm.example.test/v1',
      model_name: 'gpt-test',
      max_tokens: 1024,
      temperature: 0.2,
      dimensions: null,
      sharing: { all: false, tenant_ids: [] },
    });
  });

  it('adds an embedding model with its dimensions, shared with a picked organisation', async () => {
    const api = stubModelsApi();
    const user = userEvent.setup();
    renderPanel();
    const form = await openAddForm();
    await user.click(within(form).getByRole('radio', { name: 'Embedding' }));
    await fillValid(form, user);
    expect(within(form).queryByRole('textbox', { name: 'Temperature' })).not.toBeInTheDocument();
    const dimensions = within(form).getByRole('textbox', { name: 'Dimensions' });
    await fill(user, dimensions, '20000');
    await user.click(within(form).getByRole('button', { name: 'Add connection' }));
    expect(
      await within(form).findByText('Dimensions must be a whole number from 1 to 16000, or empty'),
    ).toBeInTheDocument();
    expect(api.calls()).not.toContain('POST /v1/models');

    await user.clear(dimensions);
    await fill(user, dimensions, '256');
    await user.click(within(form).getByPlaceholderText('Pick organisations'));
    await user.click(await screen.findByRole('option', { name: 'Client Co' }));
    await user.click(within(form).getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(api.calls()).toContain('POST /v1/models'));
    expect(bodiesOf(api, 'POST')[0]).toMatchObject({
      kind: 'embedding',
      dimensions: 256,
      sharing: { all: false, tenant_ids: ['t-client'] },
    });
    expect(await screen.findByText('Client Co')).toBeInTheDocument();
  });

  it('adds a speech model without token, temperature or dimension settings and lists it as Speech', async () => {
    const api = stubModelsApi();
    const user = userEvent.setup();
    renderPanel();
    const form = await openAddForm();
    await user.click(within(form).getByRole('radio', { name: 'Speech' }));
    await fillValid(form, user);
    expect(within(form).queryByRole('textbox', { name: 'Temperature' })).not.toBeInTheDocument();
    expect(within(form).queryByRole('textbox', { name: 'Dimensions' })).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(api.calls()).toContain('POST /v1/models'));
    expect(bodiesOf(api, 'POST')[0]).toMatchObject({ kind: 'speech', dimensions: null });
    const row = (await screen.findAllByText('Support GPT'))[0]?.closest('tr');
    expect(row && within(row).getByText('Speech')).toBeInTheDocument();
  });

  it('sends the key once and afterwards shows only its mask, in the list, the edit form and the cache', async () => {
    const api = stubModelsApi();
    const user = userEvent.setup();
    renderPanel();
    const form = await openAddForm();
    await fillValid(form, user);
    await fill(user, within(form).getByLabelText('API key'), API_KEY);
    await user.click(within(form).getByRole('radio', { name: 'Every organisation' }));
    await user.click(within(form).getByRole('button', { name: 'Add connection' }));

    await waitFor(() => expect(screen.queryByRole('form')).not.toBeInTheDocument());
    expect(bodiesOf(api, 'POST')[0]).toMatchObject({ api_key: API_KEY, sharing: { all: true } });
    expect(await screen.findByLabelText('API key of Support GPT')).toHaveTextContent('****WXYZ');
    expect(screen.getByText('Every organisation')).toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain(API_KEY);

    // Nothing in the query or mutation caches holds the key once the save is over.
    await waitFor(() => {
      const cached = JSON.stringify([
        client
          ?.getQueryCache()
          .getAll()
          .map((query) => query.state.data),
        client
          ?.getMutationCache()
          .getAll()
          .map((mutation) => mutation.state.variables),
      ]);
      expect(cached).not.toContain(API_KEY);
    });

    await user.click(screen.getByRole('button', { name: 'Edit Support GPT' }));
    const edit = await screen.findByRole('form', { name: 'Edit Support GPT' });
    expect(within(edit).getByLabelText('Stored API key')).toHaveTextContent('****WXYZ');
    expect(within(edit).queryByLabelText('New API key')).not.toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain(API_KEY);
  });

  it('replaces and removes the stored key only through their actions', async () => {
    const api = stubModelsApi([stored()]);
    const user = userEvent.setup();
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Edit Support GPT' }));
    let edit = await screen.findByRole('form', { name: 'Edit Support GPT' });

    await user.click(within(edit).getByRole('button', { name: 'Replace key' }));
    await user.click(within(edit).getByRole('button', { name: 'Save changes' }));
    expect(await within(edit).findByText('Enter the new API key')).toBeInTheDocument();
    await fill(user, within(edit).getByLabelText('New API key'), 'sk-replacement-key-9876');
    await user.click(within(edit).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByLabelText('API key of Support GPT')).toHaveTextContent('****9876');
    expect(bodiesOf(api, 'PATCH')[0]).toMatchObject({ api_key: 'sk-replacement-key-9876' });

    await user.click(screen.getByRole('button', { name: 'Edit Support GPT' }));
    edit = await screen.findByRole('form', { name: 'Edit Support GPT' });
    await user.click(within(edit).getByRole('button', { name: 'Remove key' }));
    await user.click(within(edit).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByLabelText('API key of Support GPT')).toHaveTextContent('No key');
    expect(bodiesOf(api, 'PATCH')[1]).toMatchObject({ api_key: null });
  });

  it('keeps the stored key only while the base URL names the same endpoint', async () => {
    const api = stubModelsApi([stored()]);
    const user = userEvent.setup();
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Edit Support GPT' }));
    const edit = await screen.findByRole('form', { name: 'Edit Support GPT' });
    const baseUrl = within(edit).getByRole('textbox', { name: 'Base URL' });
    await user.clear(baseUrl);
    await fill(user, baseUrl, 'https://collector.example.net/v1');
    expect(within(edit).getByRole('alert')).toHaveTextContent(/must be entered again when the URL changes/);
    await user.click(within(edit).getByRole('button', { name: 'Save changes' }));
    expect(bodiesOf(api, 'PATCH')).toEqual([]);
    await user.click(within(edit).getByRole('button', { name: 'Remove key' }));
    expect(within(edit).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(edit).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(bodiesOf(api, 'PATCH')[0]).toMatchObject({
        base_url: 'https://collector.example.net/v1',
        api_key: null,
      }),
    );
  });

  it('shows a working test with its latency, and a failed one with the provider’s message', async () => {
    let answer = json(200, { ok: true, latency_ms: 42 });
    stubModelsApi([stored()], () => answer);
    const user = userEvent.setup();
    renderPanel();

    await user.click(await screen.findByRole('button', { name: 'Test Support GPT' }));
    const ok = await screen.findByRole('status', { name: 'Support GPT: Connection works' });
    expect(ok).toHaveTextContent('The model answered in 42 ms.');

    answer = json(200, {
      ok: false,
      code: 'provider/unauthorized',
      message: 'The provider refused the API key.',
    });
    await user.click(screen.getByRole('button', { name: 'Test Support GPT' }));
    const failed = await screen.findByRole('alert', { name: 'Support GPT: Connection failed' });
    expect(failed).toHaveTextContent('The provider refused the API key.');
  });

  it('deletes a connection only after a confirmation', async () => {
    const api = stubModelsApi([stored()]);
    const user = userEvent.setup();
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Delete Support GPT' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Support GPT?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls().some((call) => call.startsWith('DELETE'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Support GPT' }));
    const again = await screen.findByRole('dialog', { name: 'Delete Support GPT?' });
    await user.click(within(again).getByRole('button', { name: 'Delete connection' }));
    expect(await screen.findByRole('heading', { name: 'No model connections yet' })).toBeInTheDocument();
  });
});
