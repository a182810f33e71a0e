import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { BOT, BOT_ID } from '../../../test/integration-fixture';
import { listOf } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { TemplateCreateForm } from './template-create-form';

function stub(bots: unknown[] = [BOT]) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'GET' && path === '/v1/bots') return listOf(bots);
      if (method === 'POST' && path === '/v1/bot-templates') {
        const { name, description } = body as { name: string; description: string };
        if (name === 'Taken') {
          return json(409, {
            code: 'bot-template/name-taken',
            message: 'Another template of your organisation already has this name.',
          });
        }
        return json(201, {
          id: 'tpl-1',
          tenant_id: 't-acme',
          name,
          description,
          config: BOT.config,
          created_by: 'u1',
          updated_by: 'u1',
          created_at: BOT.created_at,
          updated_at: BOT.updated_at,
        });
      }
      return undefined;
    },
  });
}

describe('TemplateCreateForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for a bot first when the organisation has none', async () => {
    stub([]);
    renderRoute(<TemplateCreateForm onCreated={vi.fn()} />);
    expect(await screen.findByRole('heading', { name: 'No bot to save yet' })).toBeInTheDocument();
  });

  it('checks the fields, previews what is kept of the chosen bot and saves the template', async () => {
    const onCreated = vi.fn();
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<TemplateCreateForm onCreated={onCreated} />);
    await user.click(await screen.findByRole('button', { name: 'Save template' }));
    expect(await screen.findByText('The name is required')).toBeInTheDocument();
    expect(screen.getByText('Choose the bot whose look and texts the template keeps')).toBeInTheDocument();
    expect(api.calls()).not.toContain('POST /v1/bot-templates');

    await user.click(screen.getByRole('combobox', { name: /^bot/i }));
    await user.click(await screen.findByRole('option', { name: 'Shop helper' }));
    const preview = await screen.findByRole('region', { name: 'What the template keeps' });
    expect(preview).toHaveTextContent('Shop desk');
    expect(preview).toHaveTextContent('Welcome to the shop!');
    expect(preview).toHaveTextContent('left, 2% from the edge');
    expect(preview).toHaveTextContent('500 × 750 px');
    expect(preview).toHaveTextContent('Never kept');
    expect(preview).not.toHaveTextContent('****abcd');

    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Shop look');
    await fill(user, screen.getByRole('textbox', { name: /^description/i }), 'Orange, left launcher');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(await screen.findByText('Template "Shop look" was saved.')).toBeInTheDocument();
    expect(api.bodyOf('/v1/bot-templates')).toEqual({
      name: 'Shop look',
      description: 'Orange, left launcher',
      bot_id: BOT_ID,
    });
  });

  it("shows the server's refusal as a toast and stays on the form", async () => {
    const onCreated = vi.fn();
    stub();
    const user = userEvent.setup();
    renderRoute(<TemplateCreateForm onCreated={onCreated} />);
    await user.click(await screen.findByRole('combobox', { name: /^bot/i }));
    await user.click(await screen.findByRole('option', { name: 'Shop helper' }));
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Taken');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(
      await screen.findByText('Another template of your organisation already has this name.'),
    ).toBeInTheDocument();
    expect(onCreated).not.toHaveBeenCalled();
  });
});
