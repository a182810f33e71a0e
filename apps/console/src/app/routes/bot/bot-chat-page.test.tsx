import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../lib/session';
import { BOT_ID, BOTS, REPLY } from '../../../test/bot-testing-fixture';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { Component as BotChatPage } from './bot-chat-page';

const SESSION: Session = {
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role: 'user', tenant_id: 't-acme' },
  features: ['omnirag'],
  signOut: () => Promise.resolve(),
};
const CHAT = `/v1/bots/${BOT_ID}/chat`;
const XSS = '<img src=x onerror="window.__xss=1">**bold** <script>window.__xss=1</script>';

/** The bots, and each chat message answered by the next of `replies`; returns the bodies sent. */
function stubChat(replies: Array<() => Response>, bots: unknown = BOTS) {
  const sent: unknown[] = [];
  stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'GET' && path === '/v1/bots') return json(200, bots);
      if (method === 'POST' && path === CHAT) {
        sent.push(body);
        return replies[sent.length - 1]?.();
      }
      return undefined;
    },
  });
  return sent;
}

const send = async (user: ReturnType<typeof userEvent.setup>, text: string) => {
  await fill(user, screen.getByRole('textbox', { name: 'Message' }), text);
  await user.click(screen.getByRole('button', { name: 'Send' }));
};

describe('/bot/prompt/test', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says what to do when there is no bot yet', async () => {
    stubChat([], { items: [], total: 0, page: 1, page_size: 100 });
    renderRoute(<BotChatPage />, { path: '/bot/prompt/test', session: SESSION });
    expect(await screen.findByRole('heading', { name: 'No bots yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a bot' })).toHaveAttribute('href', '/bot/customize');
  });

  it('picks a bot, shows the answer with its sources and a folded trace, and sends the history next', async () => {
    const sent = stubChat([() => json(200, REPLY), () => json(200, REPLY)]);
    const user = userEvent.setup();
    const { router } = renderRoute(<BotChatPage />, { path: '/bot/prompt/test', session: SESSION });
    await user.click(await screen.findByRole('combobox', { name: 'Bot' }));
    expect(await screen.findByRole('option', { name: 'Draft (disabled)' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Helper' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?bot=${BOT_ID}`));
    expect(await screen.findByText(/No messages yet/)).toBeInTheDocument();

    await send(user, 'How long does delivery take?');
    expect(await screen.findByText('Parcels arrive in three days [1].')).toBeInTheDocument();
    expect(screen.getByTestId('user-message')).toHaveTextContent('How long does delivery take?');
    expect(screen.getByRole('link', { name: 'Shipping (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://acme.test/shipping',
    );
    expect(sent[0]).toEqual({ text: 'How long does delivery take?', history: [] });

    const toggle = screen.getByRole('button', { name: /Trace · builtin \(model\) · 356 ms · 2 chunks/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const chunks = screen.getByRole('list', { name: 'Retrieved chunks' });
    expect(chunks).toHaveTextContent('Shipping');
    expect(chunks).toHaveTextContent('score 0.812');
    expect(chunks).toHaveTextContent('cited');
    expect(chunks).toHaveTextContent('Help › Delivery, page 4');
    expect(chunks).toHaveTextContent('Delivery of parcels takes three working days in Europe.');
    expect(within(chunks).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByLabelText('Timings')).toHaveTextContent(
      'Retrieve 12 ms · Generate 340 ms · Total 356 ms',
    );

    await send(user, 'And to Spain?');
    await waitFor(() => expect(screen.getAllByTestId('bot-message')).toHaveLength(2));
    expect(sent[1]).toEqual({
      text: 'And to Spain?',
      history: [
        { role: 'user', text: 'How long does delivery take?' },
        { role: 'assistant', text: 'Parcels arrive in three days [1].' },
      ],
    });

    await user.click(screen.getByRole('button', { name: 'Reset conversation' }));
    expect(screen.queryByTestId('bot-message')).not.toBeInTheDocument();
    expect(screen.getByText(/No messages yet/)).toBeInTheDocument();
  });

  it('shows answers as plain text, never as HTML', async () => {
    stubChat([() => json(200, { ...REPLY, messages: [{ type: 'text', text: XSS }], sources: [] })]);
    const user = userEvent.setup();
    renderRoute(<BotChatPage />, { path: `/bot/prompt/test?bot=${BOT_ID}`, session: SESSION });
    await screen.findByRole('textbox', { name: 'Message' });
    await send(user, XSS);
    const answer = await screen.findByTestId('bot-message');
    expect(answer).toHaveTextContent(XSS);
    expect(document.querySelector('img[src="x"]')).toBeNull();
    expect(document.querySelector('script')).toBeNull();
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });

  it('checks the message before sending, and keeps a refused one to send again', async () => {
    const sent = stubChat([
      () => json(413, { code: 'bot/text-too-long', message: 'The message is longer than 4000 characters.' }),
    ]);
    const user = userEvent.setup();
    renderRoute(<BotChatPage />, { path: `/bot/prompt/test?bot=${BOT_ID}`, session: SESSION });
    await screen.findByRole('textbox', { name: 'Message' });
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Type a message first.')).toBeInTheDocument();
    await send(user, 'x'.repeat(4001));
    expect(await screen.findByText('A message may have at most 4000 characters.')).toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.clear(screen.getByRole('textbox', { name: 'Message' }));
    await send(user, 'Hello');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The message is longer than 4000 characters.');
    await user.click(within(alert).getByRole('button', { name: 'Edit and send again' }));
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('Hello');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
