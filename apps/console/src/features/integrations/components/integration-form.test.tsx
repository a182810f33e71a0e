import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { OPENAI_INTEGRATION } from '../../../test/integration-fixture';
import { listOf, RAG, RAG_ID } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { IntegrationForm } from './integration-form';

const REFUSED = { ok: false, code: 'provider/unauthorized', message: 'The provider refused the API key.' };

function stub(options: { rags?: Response; test?: unknown } = {}) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'GET' && path === '/v1/rags') return options.rags ?? listOf([RAG]);
      if (method === 'POST' && path === '/v1/integrations/test') return json(200, options.test ?? REFUSED);
      if (method === 'POST' && path === '/v1/integrations') {
        return json(201, { ...OPENAI_INTEGRATION, ...(body as object), id: 'new-id', bots: [] });
      }
      if (method === 'PATCH' && path === `/v1/integrations/${OPENAI_INTEGRATION.id}`) {
        return json(200, { ...OPENAI_INTEGRATION, name: (body as { name: string }).name });
      }
      return undefined;
    },
  });
}

describe('IntegrationForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('checks the fields before anything is sent', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<IntegrationForm onSaved={vi.fn()} />);
    await fill(user, screen.getByRole('textbox', { name: /base url/i }), 'ftp://nowhere');
    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    expect(await screen.findByText('The name is required')).toBeInTheDocument();
    expect(screen.getByText(/must be an http\(s\) URL/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(api.calls().some((call) => call.startsWith('POST'))).toBe(false);
  });

  it("tests unsaved OpenAI settings and shows the provider's refusal in plain words, then saves", async () => {
    const onSaved = vi.fn();
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<IntegrationForm onSaved={onSaved} />);
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'House GPT');
    await fill(user, screen.getByRole('textbox', { name: /base url/i }), 'https://llm.example.com/v1');
    await fill(user, screen.getByRole('textbox', { name: /^model/i }), 'gpt-test');
    await fill(user, screen.getByLabelText(/^api key/i), 'sk-typed-key-1234');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connection failed')).toBeInTheDocument();
    expect(screen.getByText('The provider refused the API key.')).toBeInTheDocument();
    expect(api.bodyOf('/v1/integrations/test')).toEqual({
      engine: 'openai',
      settings: {
        base_url: 'https://llm.example.com/v1',
        model: 'gpt-test',
        api_key: 'sk-typed-key-1234',
        max_tokens: 1024,
        temperature: 0.7,
      },
    });

    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await screen.findByText('House GPT was added.')).toBeInTheDocument();
    expect(api.bodyOf('/v1/integrations')).toMatchObject({ name: 'House GPT', engine: 'openai' });
  });

  it('picks a RAG for a builtin integration and tests it', async () => {
    const api = stub({
      test: { ok: true, latency_ms: 3, detail: 'Support answers answers from the keyword index Main.' },
    });
    const user = userEvent.setup();
    renderRoute(<IntegrationForm initialEngine="builtin" onSaved={vi.fn()} />);
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Support RAG');
    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    expect(await screen.findByText('Choose the RAG the bots answer from')).toBeInTheDocument();
    await user.click(await screen.findByRole('combobox', { name: /^rag/i }));
    await user.click(await screen.findByRole('option', { name: RAG.name }));
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connection works')).toBeInTheDocument();
    expect(api.bodyOf('/v1/integrations/test')).toEqual({ engine: 'builtin', settings: { rag_id: RAG_ID } });
  });

  it('asks for a RAG first when the organisation has none', async () => {
    stub({ rags: listOf([]) });
    renderRoute(<IntegrationForm initialEngine="builtin" onSaved={vi.fn()} />);
    expect(await screen.findByText('No RAG yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a RAG' })).toHaveAttribute('href', '/rag/add');
  });

  it('explains that builtin answers need Omni RAG when the RAGs are refused', async () => {
    stub({ rags: json(403, { code: 'forbidden', message: 'No Omni RAG.' }) });
    renderRoute(<IntegrationForm initialEngine="builtin" onSaved={vi.fn()} />);
    expect(await screen.findByText('No Omni RAG subscription')).toBeInTheDocument();
  });

  it('shows a stored key only masked and sends the mask back to keep it', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<IntegrationForm integration={OPENAI_INTEGRATION} onSaved={vi.fn()} />);
    expect(screen.getByLabelText('Stored API key')).toHaveTextContent('****wxyz');
    expect(screen.queryByRole('radio', { name: /builtin/i })).not.toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: /^name/i });
    await user.clear(name);
    await fill(user, name, 'House GPT 2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('House GPT 2 was saved.')).toBeInTheDocument();
    expect(api.bodyOf(`/v1/integrations/${OPENAI_INTEGRATION.id}`)).toEqual({
      name: 'House GPT 2',
      settings: {
        base_url: 'https://llm.example.com/v1',
        model: 'gpt-test',
        api_key: '****wxyz',
        max_tokens: 1024,
        temperature: 0.7,
      },
    });
  });
  it('asks for the key again when the URL moves to another endpoint, before anything is sent', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<IntegrationForm integration={OPENAI_INTEGRATION} onSaved={vi.fn()} />);
    const baseUrl = screen.getByRole('textbox', { name: /base url/i });
    // The same endpoint written another way keeps the key.
    await user.clear(baseUrl);
    await fill(user, baseUrl, 'https://LLM.example.com:443/v1/');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.clear(baseUrl);
    await fill(user, baseUrl, 'https://collector.example.net/v1');
    const moved =
      'The API key must be entered again when the URL changes: a stored key is only sent to the address it was entered for.';
    expect(screen.getByRole('alert')).toHaveTextContent(moved);
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(api.calls().some((call) => call.startsWith('POST') || call.startsWith('PATCH'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Replace key' }));
    await fill(user, screen.getByLabelText(/new api key/i), 'sk-entered-again-1234');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.bodyOf(`/v1/integrations/${OPENAI_INTEGRATION.id}`)).toMatchObject({
        settings: { base_url: 'https://collector.example.net/v1', api_key: 'sk-entered-again-1234' },
      }),
    );
  });
});
