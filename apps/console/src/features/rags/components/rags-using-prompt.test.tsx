import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { listOf, PROMPT_ID, RAG } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { RagsUsingPrompt } from './rags-using-prompt';

const stubRags = (answer: () => Response) =>
  stubAuthApi({
    signedIn: true,
    handle: (method, path) => (method === 'GET' && path === '/v1/rags' ? answer() : undefined),
  });

describe('RagsUsingPrompt', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the RAGs the server finds for this prompt, linked to their pages', async () => {
    const { fetchMock } = stubRags(() =>
      listOf([{ ...RAG, prompt_id: PROMPT_ID, prompt_name: 'Help desk', model_name: 'House model' }]),
    );
    renderRoute(<RagsUsingPrompt promptId={PROMPT_ID} />);
    expect(await screen.findByRole('link', { name: 'Support answers' })).toHaveAttribute(
      'href',
      `/rag/view?id=${RAG.id}`,
    );
    expect(screen.getByText('(Manuals index, House model)')).toBeInTheDocument();
    const asked = fetchMock.mock.calls
      .map(([input]) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url))
      .find((url) => url.startsWith('/v1/rags'));
    expect(new URL(asked ?? '', 'http://localhost').searchParams.get('prompt_id')).toBe(PROMPT_ID);
  });

  it('says when no RAG uses the prompt', async () => {
    stubRags(() => listOf([]));
    renderRoute(<RagsUsingPrompt promptId={PROMPT_ID} />);
    expect(await screen.findByText(/no rag uses this prompt yet/i)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'RAGs page' })).toHaveAttribute('href', '/rag');
  });

  it('says when the list could not be loaded', async () => {
    stubRags(() => json(500, { code: 'internal', message: 'The server failed.' }));
    renderRoute(<RagsUsingPrompt promptId={PROMPT_ID} />);
    expect(await screen.findByText('The RAGs using this prompt could not be loaded')).toBeInTheDocument();
  });
});
