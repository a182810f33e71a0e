import { AGENT_READ_ONLY_MESSAGE, type Bot } from '@omnibot/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHAT_MODEL, listOf, RAG } from '../../../test/rag-fixture';
import { applyPatch, BOT_ID, botListOf, botSession, makeBot, sentBodies } from '../../../test/bot-fixture';
import { defined } from '../../../test/defined';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { stubFilesApi } from '../../../test/fake-files-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { Component as CustomizePage } from './bot-customize-page';

const PATH = `/v1/bots/${BOT_ID}`;

/** Where the fake server's permanent image links point. */
const IMAGE_BASE = `https://omnibot.example.com/v1/widget/${BOT_ID}/image`;

function stubBots(initial: Bot[] = [makeBot()]) {
  let bots = initial;
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (path === '/v1/bots' && method === 'GET') return botListOf(bots);
      if (path === '/v1/bots' && method === 'POST') {
        const created = makeBot({ name: (body as { name: string }).name });
        bots = [created];
        return json(201, created);
      }
      if (path === PATH && method === 'GET') {
        const bot = bots.find((item) => item.id === BOT_ID);
        return bot ? json(200, bot) : json(404, { code: 'not_found', message: 'This bot does not exist.' });
      }
      if (path === PATH && method === 'PATCH') {
        const updated = applyPatch(defined(bots[0]), body as Parameters<typeof applyPatch>[1]);
        bots = [updated];
        return json(200, updated);
      }
      if (path === `${PATH}/images` && method === 'POST') {
        const { path: file } = body as { path: string };
        return json(200, {
          url: `${IMAGE_BASE}?${new URLSearchParams({ path: file, signature: 'sig' }).toString()}`,
        });
      }
      if (path === '/v1/rags') return listOf([RAG]);
      if (path === '/v1/prompts') return listOf([]);
      if (path === '/v1/models/available') return json(200, { items: [CHAT_MODEL] });
      return undefined;
    },
  });
}

const patchBodies = (fetchMock: ReturnType<typeof stubBots>['fetchMock']) =>
  sentBodies<{ config: Record<string, Record<string, unknown>> }>(fetchMock, 'PATCH');

describe('/bot/customize', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('saves only the changed groups as a configuration patch', async () => {
    const { fetchMock } = stubBots();
    const user = userEvent.setup();
    renderRoute(<CustomizePage />, { path: `/bot/customize?bot_id=${BOT_ID}`, session: botSession() });
    const name = await screen.findByRole('textbox', { name: /^name/i });
    expect(name).toHaveValue('Help bot');
    await user.clear(name);
    await fill(user, name, 'Acme helper');
    await user.click(screen.getByRole('button', { name: 'Engines' }));
    await user.click(screen.getByRole('combobox', { name: /bot engine/i }));
    await user.click(await screen.findByRole('option', { name: /^chat model/i }));
    await user.click(await screen.findByRole('combobox', { name: /^chat model/i }));
    await user.click(await screen.findByRole('option', { name: 'House model (gpt-test)' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(/The settings of "Help bot" were saved/)).toBeInTheDocument();
    const [patch] = patchBodies(fetchMock);
    expect(Object.keys(defined(patch).config).sort()).toEqual(['engines', 'identity']);
    expect(defined(patch).config.identity).toMatchObject({ name: 'Acme helper' });
    expect(defined(patch).config.engines).toMatchObject({ botEngine: 'openai', model_id: CHAT_MODEL.id });
    // A second save with nothing changed sends nothing.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Nothing changed since the last save.')).toBeInTheDocument();
    expect(patchBodies(fetchMock)).toHaveLength(1);
  });

  it('shows the schema messages on their fields and sends nothing while they stand', async () => {
    const { fetchMock } = stubBots();
    const user = userEvent.setup();
    renderRoute(<CustomizePage />, { path: `/bot/customize?bot_id=${BOT_ID}`, session: botSession() });
    const description = await screen.findByRole('textbox', { name: /^description/i });
    await user.clear(description);
    await fill(user, description, 'x'.repeat(166));
    expect(screen.getByText(/166 \/ 165 characters/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Window' }));
    const width = await screen.findByRole('textbox', { name: /^width/i });
    await user.clear(width);
    await fill(user, width, '100');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('The description has at most 165 characters.')).toBeInTheDocument();
    expect(screen.getByText('The window width (px) is at least 280.')).toBeInTheDocument();
    expect(screen.getByText('Some settings need attention: see the highlighted fields.')).toBeInTheDocument();
    expect(patchBodies(fetchMock)).toHaveLength(0);
  });

  it('opens the section of a field the server refused and shows its message there', async () => {
    stubAuthApi({
      signedIn: true,
      handle: (method, path) => {
        if (path === '/v1/bots' && method === 'GET') return botListOf([makeBot()]);
        if (path === PATH && method === 'GET') return json(200, makeBot());
        if (path === PATH && method === 'PATCH')
          return json(400, {
            code: 'bot/invalid-config',
            message: 'config.launcher.infoText: The launcher info text has at most 1000 characters.',
          });
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderRoute(<CustomizePage />, { path: `/bot/customize?bot_id=${BOT_ID}`, session: botSession() });
    await fill(user, await screen.findByRole('textbox', { name: /^widget name/i }), ' 2');
    expect(screen.queryByRole('textbox', { name: /^info text/i })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const info = await screen.findByRole('textbox', { name: /^info text/i });
    await waitFor(() => expect(info).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('The launcher info text has at most 1000 characters.')).toBeInTheDocument();
  });

  it('posts the public projection of the current values to the preview once it is ready', async () => {
    stubBots();
    renderRoute(<CustomizePage />, { path: `/bot/customize?bot_id=${BOT_ID}`, session: botSession() });
    const frame = await screen.findByTitle<HTMLIFrameElement>('Live preview of the widget');
    expect(frame.getAttribute('src')).toBe(`/widget/?preview=1&bot=${BOT_ID}`);
    // happy-dom loads no page into an iframe, so the frame's window is this stand-in that records what it receives.
    const posted = vi.fn((_message: unknown, _targetOrigin: string) => undefined);
    const target = { postMessage: posted } as unknown as Window;
    Object.defineProperty(frame, 'contentWindow', { value: target });

    // Nothing is posted before the widget says it is ready, nor for a "ready" from another window.
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { source: 'omnibot-widget', type: 'ready' },
        origin: window.location.origin,
        source: window,
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(posted).not.toHaveBeenCalled();

    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { source: 'omnibot-widget', type: 'ready' },
          origin: window.location.origin,
          source: target,
        }),
      );
    });
    await waitFor(() => expect(posted).toHaveBeenCalledTimes(1));
    const [first, targetOrigin] = defined(posted.mock.calls[0]);
    expect(targetOrigin).toBe(window.location.origin);
    expect(first).toMatchObject({
      source: 'omnibot-widget',
      type: 'previewConfig',
      colorScheme: 'light',
      config: { identity: { name: 'Help bot' }, services: { translate: false, tts: false } },
    });
    // The projection never carries engines, provider blocks or secrets.
    expect(JSON.stringify(first)).not.toContain('apiKey');
    expect(JSON.stringify(first)).not.toContain('engines');

    // A burst of typing becomes one message with the last value.
    const name = screen.getByRole('textbox', { name: /^name/i });
    fireEvent.change(name, { target: { value: 'Acme' } });
    fireEvent.change(name, { target: { value: 'Acme helper' } });
    await waitFor(() => expect(posted).toHaveBeenCalledTimes(2));
    expect(posted.mock.calls[1]?.[0]).toMatchObject({ config: { identity: { name: 'Acme helper' } } });

    // The dark toggle posts the same configuration in dark.
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    await waitFor(() => expect(posted).toHaveBeenCalledTimes(3));
    expect(posted.mock.calls[2]?.[0]).toMatchObject({ colorScheme: 'dark' });

    // An invalid value is not posted; the preview keeps the last valid settings and says so.
    fireEvent.change(name, { target: { value: '' } });
    expect(
      await screen.findByText(
        'The preview shows the last valid settings until the highlighted fields are fixed.',
      ),
    ).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(posted).toHaveBeenCalledTimes(3);
  });

  it('takes the avatar from the gallery through the image picker', async () => {
    stubFilesApi({ folders: ['brand'], files: ['brand/avatar.png'] });
    const files = globalThis.fetch;
    const { fetchMock } = stubBots();
    const bots = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      (typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url).startsWith(
        '/v1/files',
      )
        ? files(input, init)
        : bots(input, init),
    );
    const user = userEvent.setup();
    renderRoute(<CustomizePage />, { path: `/bot/customize?bot_id=${BOT_ID}`, session: botSession() });
    await user.click(await screen.findByRole('button', { name: 'Choose avatar from the gallery' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose: Avatar' });
    await user.click(await within(dialog).findByRole('radio', { name: 'brand/avatar.png' }));
    await user.click(within(dialog).getByRole('button', { name: 'Use this image' }));
    const avatar = screen.getByRole<HTMLInputElement>('textbox', { name: /^avatar/i });
    // A permanent link of the bot (a gallery download link expires), asked of the server for the picked path.
    await waitFor(() => expect(avatar.value).toBe(`${IMAGE_BASE}?path=brand%2Favatar.png&signature=sig`));
    expect(sentBodies(fetchMock, 'POST')).toContainEqual({ path: 'brand/avatar.png' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sentBodies(fetchMock, 'PATCH')).toHaveLength(1));
    expect(sentBodies(fetchMock, 'PATCH')[0]).toMatchObject({
      config: { identity: { avatarUri: avatar.value } },
    });
  });

  it('leads to creating the first bot when there is none', async () => {
    const { fetchMock } = stubBots([]);
    const user = userEvent.setup();
    renderRoute(<CustomizePage />, { path: '/bot/customize', session: botSession() });
    expect(await screen.findByRole('heading', { name: 'No bots yet' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a bot' });
    await fill(user, defined(dialog.querySelector('input')), 'Shop assistant');
    await user.click(screen.getAllByRole('button', { name: 'Create bot' }).at(-1) as HTMLElement);
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`/bot/customize?bot_id=${BOT_ID}`),
    );
    expect(sentBodies(fetchMock, 'POST')[0]).toEqual({
      name: 'Shop assistant',
      config: { identity: { name: 'Shop assistant', botName: 'Shop assistant' } },
    });
  });

  it('shows an agent every section with its fields disabled and nothing to save', async () => {
    const { fetchMock } = stubBots();
    const user = userEvent.setup();
    renderRoute(<CustomizePage />, {
      path: `/bot/customize?bot_id=${BOT_ID}`,
      session: botSession(['omnirag'], 'agent'),
    });
    const name = await screen.findByRole('textbox', { name: /^name/i });
    expect(name).toHaveValue('Help bot');
    expect(name).toBeDisabled();
    expect(screen.getByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();

    // The sections still open, to read them.
    await user.click(screen.getByRole('button', { name: 'Engines' }));
    expect(await screen.findByRole('combobox', { name: /bot engine/i })).toBeDisabled();
    expect(sentBodies(fetchMock, 'PATCH')).toEqual([]);
  });
});
