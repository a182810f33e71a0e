import type { LiveMessage } from '@omnibot/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import {
  BOT_PART,
  FakeEventSource,
  inboxHandler,
  makeConversation,
  ME,
  message,
  MINE_ID,
  stubEventSource,
  transcriptOf,
} from '../../../test/inbox-fixture';
import { renderRoute } from '../../../test/render';
import { Inbox } from './inbox';

const MINE = makeConversation({ id: MINE_ID, state: 'agent', language: 'fr', agent: ME });

const translated = (
  base: LiveMessage,
  language: string,
  translation: { text: string; language: string },
): LiveMessage => ({ ...base, language, translation });

const MESSAGES: LiveMessage[] = [
  ...BOT_PART,
  message('m4', 'system', 'Grace Hopper joined the conversation.'),
  translated(message('m5', 'visitor', 'où est ma commande ?'), 'fr', {
    text: 'where is my order?',
    language: 'en',
  }),
  translated(message('m6', 'agent', 'thank you', 'Grace Hopper'), 'en', { text: 'merci', language: 'fr' }),
  { ...message('m7', 'visitor', 'bonjour'), language: 'fr', untranslated: true },
];

function stubInbox(post?: (path: string, body: unknown) => Response | undefined) {
  const preferences = { language: 'en' };
  const api = stubAuthApi({
    signedIn: true,
    handle: inboxHandler({
      list: () => [MINE],
      transcripts: () => ({ [MINE_ID]: transcriptOf(MINE, MESSAGES) }),
      preferences,
      ...(post === undefined ? {} : { post }),
    }),
  });
  return { ...api, preferences };
}

const renderInbox = () => {
  const user = userEvent.setup();
  const view = renderRoute(<Inbox userId={ME.id} />, { path: `/inbox?id=${MINE_ID}` });
  return { user, ...view };
};

const line = (text: string) => {
  const item = screen.getByText(text).closest('li');
  if (item === null) throw new Error(`no transcript line with ${text}`);
  return within(item);
};

describe('Inbox with automatic agent translation', () => {
  beforeEach(() => stubEventSource());
  afterEach(() => vi.unstubAllGlobals());

  it("shows a visitor's message in the agent's language with the original beneath, and what the visitor read", async () => {
    stubInbox();
    renderInbox();
    expect(await screen.findByText('where is my order?')).toBeInTheDocument();
    expect(
      line('where is my order?').getByText('Original (French): où est ma commande ?'),
    ).toBeInTheDocument();
    expect(line('thank you').getByText('The visitor reads (French): merci')).toBeInTheDocument();
    expect(
      line('bonjour').getByText('Not translated: the translator did not answer, so the original was sent.'),
    ).toBeInTheDocument();
  });

  it('shows a translated message that arrives as an event in both languages', async () => {
    stubInbox();
    renderInbox();
    await screen.findByText('where is my order?');
    const arriving = translated(message('m8', 'visitor', 'merci'), 'fr', {
      text: 'thank you!',
      language: 'en',
    });
    act(() => FakeEventSource.current().emit('message', { conversationId: MINE_ID, message: arriving }));
    expect(await screen.findByText('thank you!')).toBeInTheDocument();
    expect(line('thank you!').getByText('Original (French): merci')).toBeInTheDocument();
  });

  it("keeps the agent's language on the server and says so", async () => {
    const api = stubInbox();
    const { user } = renderInbox();
    const picker = await screen.findByRole('combobox', { name: 'My language' });
    await waitFor(() => expect(picker).toHaveValue('English (en)'));
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'German (de)' }));
    expect(await screen.findByText('Translated messages now reach you in German.')).toBeInTheDocument();
    expect(api.calls()).toContain('PUT /v1/inbox/preferences');
    expect(api.preferences.language).toBe('de');
    expect(picker).toHaveValue('German (de)');
  });

  it('says when the language was not saved and keeps the one in force', async () => {
    stubAuthApi({
      signedIn: true,
      handle: (method, path, body) =>
        method === 'PUT' && path === '/v1/inbox/preferences'
          ? json(400, { code: 'validation', message: 'A language is a code such as en, fr or pt-BR.' })
          : inboxHandler({
              list: () => [MINE],
              transcripts: () => ({ [MINE_ID]: transcriptOf(MINE, MESSAGES) }),
            })(method, path, body),
    });
    const { user } = renderInbox();
    const picker = await screen.findByRole('combobox', { name: 'My language' });
    await waitFor(() => expect(picker).toHaveValue('English (en)'));
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'French (fr)' }));
    expect(await screen.findByText('Your language was not saved')).toBeInTheDocument();
    expect(picker).toHaveValue('English (en)');
  });
});
