import { AGENT_READ_ONLY_MESSAGE } from '@omnibot/contracts';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../lib/session';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { listOf, PROMPT, PROMPT_ID } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { TestProviders } from '../../../test/test-providers';
import { Component as ComposePage } from './prompt-compose-page';
import { Component as DetailPage } from './prompt-detail-page';

const sessionOf = (role: string): Session => ({
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role, tenant_id: 't-acme' },
  features: ['omnirag'],
  signOut: () => Promise.resolve(),
});

const TEMPLATE = 'Answer from {{context}} only.\n\nQuestion: {{question}}';

function stub() {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) => {
      if (method !== 'GET') return undefined;
      if (path === `/v1/prompts/${PROMPT_ID}`) {
        return json(200, {
          ...PROMPT,
          description: 'For the support desk',
          template: TEMPLATE,
          variables: ['context', 'question'],
        });
      }
      if (path === '/v1/rags') return listOf([]);
      return undefined;
    },
  });
}

/** The detail page reads its id from the path, so it is rendered under its route pattern. */
function renderDetail(session: Session) {
  const router = createMemoryRouter([{ path: '/prompt/detail/:id', element: <DetailPage /> }], {
    initialEntries: [`/prompt/detail/${PROMPT_ID}`],
  });
  return render(<RouterProvider router={router} />, {
    wrapper: (props) => <TestProviders session={session} {...props} />,
  });
}

describe('prompt screens for an agent', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('/prompt/detail shows the description and the template without save, delete or restore', async () => {
    stub();
    renderDetail(sessionOf('agent'));
    expect(await screen.findByRole('heading', { level: 1, name: PROMPT.name })).toBeInTheDocument();
    expect(await screen.findByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText('For the support desk')).toBeInTheDocument();
    expect(screen.getByLabelText('Template')).toHaveTextContent('Question: {{question}}');
    expect(screen.queryByRole('button', { name: /save|delete|restore/i })).toBeNull();
  });

  it('/prompt/detail offers a user the form and the delete button', async () => {
    stub();
    renderDetail(sessionOf('user'));
    expect(await screen.findByRole('button', { name: 'Save as new version' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.queryByText(AGENT_READ_ONLY_MESSAGE)).toBeNull();
  });

  it('/prompt/compose says why there is no form and leads back to the prompts', async () => {
    stub();
    renderRoute(<ComposePage />, { path: '/prompt/compose', session: sessionOf('agent') });
    expect(await screen.findByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the prompts' })).toHaveAttribute('href', '/prompt');
    expect(screen.queryByRole('button', { name: 'Save prompt' })).toBeNull();
  });
});
