import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../lib/session';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { INDEX_ID, optionsHandler, RAG } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { Component as RagAddPage } from './rag-add-page';

const SESSION: Session = {
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role: 'administrator', tenant_id: 't-acme' },
  features: ['omnirag'],
  signOut: () => Promise.resolve(),
};

describe('/rag/add', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('creates the RAG, says so and opens its page', async () => {
    const options = optionsHandler();
    const { bodyOf } = stubAuthApi({
      signedIn: true,
      handle: (method, path) =>
        method === 'POST' && path === '/v1/rags' ? json(201, RAG) : options(method, path),
    });
    const user = userEvent.setup();
    renderRoute(<RagAddPage />, { path: '/rag/add', session: SESSION });

    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Support answers');
    await user.click(screen.getByRole('combobox', { name: /^index/i }));
    await user.click(await screen.findByRole('option', { name: 'Manuals index' }));
    await user.click(screen.getByRole('button', { name: 'Create RAG' }));

    expect(
      await screen.findByText('RAG "Support answers" was created. Try it in its test box.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/rag/view?id=${RAG.id}`));
    expect(bodyOf('/v1/rags')).toMatchObject({ name: 'Support answers', index_id: INDEX_ID, model_id: null });
  });

  it('shows a taken name on the name field and stays on the page', async () => {
    const options = optionsHandler();
    stubAuthApi({
      signedIn: true,
      handle: (method, path) =>
        method === 'POST' && path === '/v1/rags'
          ? json(409, {
              code: 'rag/name-taken',
              message: 'Another RAG of your organisation already has this name.',
            })
          : options(method, path),
    });
    const user = userEvent.setup();
    renderRoute(<RagAddPage />, { path: '/rag/add', session: SESSION });
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Support answers');
    await user.click(screen.getByRole('combobox', { name: /^index/i }));
    await user.click(await screen.findByRole('option', { name: 'Manuals index' }));
    await user.click(screen.getByRole('button', { name: 'Create RAG' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /^name/i })).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(
      screen.getAllByText('Another RAG of your organisation already has this name.').length,
    ).toBeGreaterThan(0);
    expect(screen.getByTestId('location')).toHaveTextContent('/rag/add');
  });
});
