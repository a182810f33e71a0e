import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { PromptList } from './prompt-list';

const QUERY = { page: 1, page_size: 20 };
const PROMPT = {
  id: '7f1c6a52-6c1e-4a43-9a39-0d6c1f3b2a10',
  tenant_id: 't-acme',
  name: 'Help desk',
  description: 'Answers for the help desk',
  current_version: 3,
  created_by: 'u1',
  updated_by: 'u1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};

function stubPrompts(items: unknown[]) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) =>
      method === 'GET' && path === '/v1/prompts'
        ? json(200, { items, total: items.length, page: 1, page_size: 20 })
        : undefined,
  });
}

describe('PromptList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells the user to create the first prompt, with a link to compose one', async () => {
    stubPrompts([]);
    renderRoute(<PromptList query={QUERY} onQueryChange={() => undefined} />);
    expect(await screen.findByRole('heading', { name: 'No prompts yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a prompt' })).toHaveAttribute('href', '/prompt/compose');
  });

  it('links each prompt to its detail page and shows its version', async () => {
    stubPrompts([PROMPT]);
    renderRoute(<PromptList query={QUERY} onQueryChange={() => undefined} />);
    expect(await screen.findByRole('link', { name: 'Help desk' })).toHaveAttribute(
      'href',
      `/prompt/detail/${PROMPT.id}`,
    );
    expect(screen.getByText('v3')).toBeInTheDocument();
  });
});
