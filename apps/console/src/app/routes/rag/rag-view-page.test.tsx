import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../lib/session';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { optionsHandler, RAG, RAG_ID } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { Component as RagViewPage } from './rag-view-page';

const SESSION: Session = {
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role: 'administrator', tenant_id: 't-acme' },
  features: ['omnirag'],
  signOut: () => Promise.resolve(),
};
const PATH = `/v1/rags/${RAG_ID}`;
const MODEL_GONE = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';

function stubRag(rag: unknown = RAG) {
  const options = optionsHandler();
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (path !== PATH) return options(method, path);
      if (method === 'GET')
        return rag ? json(200, rag) : json(404, { code: 'not_found', message: 'Not found.' });
      if (method === 'PATCH')
        return json(200, { ...RAG, ...(body as object), updated_at: '2026-01-03T00:00:00.000Z' });
      if (method === 'DELETE') return new Response(null, { status: 204 });
      return undefined;
    },
  });
}

describe('/rag/view', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the RAG with its test box, and saves a change', async () => {
    const { fetchMock } = stubRag({ ...RAG, model_id: MODEL_GONE, model_name: 'Old model' });
    const user = userEvent.setup();
    renderRoute(<RagViewPage />, { path: `/rag/view?id=${RAG_ID}`, session: SESSION });
    expect(await screen.findByRole('heading', { name: 'Support answers' })).toBeInTheDocument();
    expect(
      screen.getByText('Index: Manuals index · Prompt: Built-in prompt · Model: Old model'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Test' })).toBeInTheDocument();

    // A model no longer offered to the organisation is still shown under its name.
    expect(screen.getByRole('combobox', { name: /chat model/i })).toHaveValue('Old model');

    const name = screen.getByRole('textbox', { name: /^name/i });
    expect(name).toHaveValue('Support answers');
    await user.clear(name);
    await fill(user, name, 'Help answers');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The RAG was saved.')).toBeInTheDocument();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    const sent = patch?.[1]?.body;
    expect(typeof sent === 'string' ? JSON.parse(sent) : sent).toEqual({
      name: 'Help answers',
      index_id: RAG.index_id,
      prompt_id: null,
      model_id: MODEL_GONE,
      citations: true,
      fallback_text: RAG.fallback_text,
      max_context_chars: 6000,
      language: 'auto',
    });
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Help answers' })).toBeInTheDocument());
  });

  it('deletes the RAG after a confirmation and goes back to the list', async () => {
    const { calls } = stubRag();
    const user = userEvent.setup();
    renderRoute(<RagViewPage />, { path: `/rag/view?id=${RAG_ID}`, session: SESSION });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('This cannot be undone.');
    expect(calls()).not.toContain(`DELETE ${PATH}`);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/rag$/));
    expect(calls()).toContain(`DELETE ${PATH}`);
  });

  it('says when the RAG does not exist or none was chosen', async () => {
    stubRag(null);
    const { unmount } = renderRoute(<RagViewPage />, { path: `/rag/view?id=${RAG_ID}`, session: SESSION });
    expect(await screen.findByText('RAG not found')).toBeInTheDocument();
    expect(screen.getByText(/it may have been deleted/i)).toBeInTheDocument();
    unmount();
    renderRoute(<RagViewPage />, { path: '/rag/view', session: SESSION });
    expect(screen.getByText('No RAG was chosen.', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the RAGs' })).toHaveAttribute('href', '/rag');
  });
});
