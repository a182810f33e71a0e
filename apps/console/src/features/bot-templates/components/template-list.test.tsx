import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { BOT } from '../../../test/integration-fixture';
import { renderRoute } from '../../../test/render';
import { TemplateList } from './template-list';

const TEMPLATE = {
  id: '8b9c0d1e-2f3a-4b4c-8d5e-6f7a8b9c0d1e',
  tenant_id: 't-acme',
  name: 'Shop look',
  description: 'Orange, left launcher',
  config: {
    identity: BOT.config.identity,
    welcome: BOT.config.welcome,
    appearance: BOT.config.appearance,
    feedback: BOT.config.feedback,
    titles: BOT.config.titles,
    masking: BOT.config.masking,
    launcher: BOT.config.launcher,
    window: BOT.config.window,
  },
  created_by: 'u1',
  updated_by: 'u1',
  created_at: BOT.created_at,
  updated_at: BOT.updated_at,
};
const OF = `/v1/bot-templates/${TEMPLATE.id}`;

function stub(items: unknown[] = [TEMPLATE]) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'GET' && path === '/v1/bot-templates') return json(200, { items });
      if (method === 'PATCH' && path === OF) return json(200, { ...TEMPLATE, ...(body as object) });
      if (method === 'DELETE' && path === OF) return new Response(null, { status: 204 });
      if (method === 'POST' && path === `${OF}/bots`) {
        return json(201, { ...BOT, id: 'new-bot', name: (body as { name: string }).name });
      }
      return undefined;
    },
  });
}

describe('TemplateList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells an organisation without templates how to make one', async () => {
    stub([]);
    renderRoute(<TemplateList />);
    expect(await screen.findByRole('heading', { name: 'No templates yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a template' })).toHaveAttribute(
      'href',
      '/bot/template/create',
    );
  });

  it('renames a template, checking the name first', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<TemplateList />);
    expect(await screen.findByText('Orange, left launcher')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Rename Shop look' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename "Shop look"' });
    const name = within(dialog).getByRole('textbox', { name: /^name/i });
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The name is required')).toBeInTheDocument();
    expect(api.calls()).not.toContain(`PATCH ${OF}`);
    await fill(user, name, 'Shop look 2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Template "Shop look 2" was saved.')).toBeInTheDocument();
    expect(api.bodyOf(OF)).toEqual({ name: 'Shop look 2', description: 'Orange, left launcher' });
  });

  it('creates a bot from a template', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<TemplateList />);
    await user.click(await screen.findByRole('button', { name: 'Create bot from template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a bot from "Shop look"' });
    expect(within(dialog).getByRole('region', { name: 'The new bot starts with' })).toHaveTextContent(
      'Shop desk',
    );
    await fill(user, within(dialog).getByRole('textbox', { name: /^bot name/i }), 'Second shop');
    await user.click(within(dialog).getByRole('button', { name: 'Create bot' }));
    expect(await screen.findByText(/Bot "Second shop" was created/)).toBeInTheDocument();
    expect(api.bodyOf(`${OF}/bots`)).toEqual({ name: 'Second shop' });
  });

  it('deletes a template only after a confirmation', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<TemplateList />);
    await user.click(await screen.findByRole('button', { name: 'Delete Shop look' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls()).not.toContain(`DELETE ${OF}`);
    await user.click(screen.getByRole('button', { name: 'Delete Shop look' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Template "Shop look" was deleted.')).toBeInTheDocument();
    expect(api.calls()).toContain(`DELETE ${OF}`);
  });
});
