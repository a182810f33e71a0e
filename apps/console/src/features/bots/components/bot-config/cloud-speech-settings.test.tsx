import type { Bot } from '@omnibot/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyPatch, BOT_ID, botSession, makeBot, sentBodies } from '../../../../test/bot-fixture';
import { defined } from '../../../../test/defined';
import { json, stubAuthApi } from '../../../../test/fake-auth-api';
import { fill } from '../../../../test/fill';
import { CHAT_MODEL, listOf, RAG } from '../../../../test/rag-fixture';
import { renderRoute } from '../../../../test/render';
import { BotConfigEditor } from '../bot-config-editor';

type Patch = { config: Record<string, Record<string, unknown>> };

const SERVICE_ACCOUNT_KEY = JSON.stringify({
  type: 'service_account',
  project_id: 'p1',
  client_email: 'bot@p1.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n',
});

function botWith(change: (config: Bot['config']) => void): Bot {
  const bot = makeBot();
  change(bot.config);
  return bot;
}

async function openSection(bot: Bot, section: string) {
  let current = bot;
  const { fetchMock } = stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (path === `/v1/bots/${BOT_ID}` && method === 'PATCH') {
        current = applyPatch(current, body as Parameters<typeof applyPatch>[1]);
        return json(200, current);
      }
      if (path === '/v1/rags') return listOf([RAG]);
      if (path === '/v1/prompts') return listOf([]);
      if (path === '/v1/models/available') return json(200, { items: [CHAT_MODEL] });
      if (path === `/v1/bots/${BOT_ID}/services/test` && method === 'POST') {
        const { service } = body as { service: string };
        return service === 'geolocation'
          ? json(200, {
              ok: false,
              code: 'geolocation/provider-error',
              message: 'The geolocation service at https://geo.example.com answered HTTP 500.',
            })
          : json(200, { ok: true, latency_ms: 12, detail: '"Hello" (detected en) in French: "Bonjour".' });
      }
      return undefined;
    },
  });
  const user = userEvent.setup();
  renderRoute(<BotConfigEditor bot={bot} />, { session: botSession() });
  await user.click(await screen.findByRole('button', { name: section }));
  return { user, fetchMock };
}

describe('cloud translation, voices and geolocation settings', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('offers Google and Amazon as translators and says which keys are missing', async () => {
    const { user } = await openSection(makeBot(), 'Translation');
    await user.click(screen.getByRole('combobox', { name: /^translator/i }));
    expect(screen.getByRole('option', { name: 'Google Cloud Translation' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Amazon Translate' }));
    expect(screen.getByRole('switch', { name: /translate automatically/i })).toBeDisabled();
    expect(
      screen.getByText('Enter the AWS access key and secret under Cloud accounts first.'),
    ).toBeInTheDocument();
  });

  it('asks for a fallback translator under Dialogflow CX and saves both', async () => {
    const { user, fetchMock } = await openSection(
      botWith((config) => {
        config.google.apiKey = '****abcd';
      }),
      'Translation',
    );
    await user.click(screen.getByRole('combobox', { name: /^translator/i }));
    await user.click(screen.getByRole('option', { name: /Dialogflow CX agent/ }));
    await user.click(screen.getByRole('combobox', { name: /^fallback translator/i }));
    await user.click(
      within(screen.getByRole('listbox')).getByRole('option', { name: 'Google Cloud Translation' }),
    );
    expect(screen.getByRole('switch', { name: /translate automatically/i })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(sentBodies<Patch>(fetchMock, 'PATCH')[0]);
    expect(patch.config.engines).toMatchObject({
      translateEngine: 'dialogflowcx',
      translateFallback: 'google',
    });
  });

  it('refuses a pasted service account key that is not a key file before saving', async () => {
    const { user, fetchMock } = await openSection(makeBot(), 'Cloud accounts');
    await fill(user, screen.getByLabelText(/^Service account key/), '{"client_email": "x"}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Paste the whole service account key file/)).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'PATCH')).toHaveLength(0);

    await user.clear(screen.getByLabelText(/^Service account key/));
    await fill(user, screen.getByLabelText(/^Service account key/), SERVICE_ACCOUNT_KEY);
    await fill(user, screen.getByLabelText(/^Access key id/), 'AKIAEXAMPLE');
    await fill(user, screen.getByLabelText(/^Secret access key/), 'secret-example');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(sentBodies<Patch>(fetchMock, 'PATCH')[0]);
    expect(patch.config.google).toMatchObject({ serviceAccountKey: SERVICE_ACCOUNT_KEY });
    expect(patch.config.aws).toMatchObject({ key: 'AKIAEXAMPLE', secret: 'secret-example' });
  });

  it('says a kept AWS secret must be entered again when its endpoint changes', async () => {
    const { user } = await openSection(
      botWith((config) => {
        config.aws.key = '****AKIA';
        config.aws.secret = '****WXYZ';
      }),
      'Cloud accounts',
    );
    await fill(user, screen.getByRole('textbox', { name: /^Polly endpoint/ }), 'https://polly.example.net');
    expect(
      screen.getAllByText('An address this key is sent to changed: enter the key again or remove it.'),
    ).toHaveLength(2);
  });

  it('chooses Amazon Polly or Google as the server voice', async () => {
    const { user, fetchMock } = await openSection(
      botWith((config) => {
        config.behaviour.voice = 'server';
      }),
      'Behaviour',
    );
    await user.click(screen.getByRole('combobox', { name: /^server voice/i }));
    await user.click(screen.getByRole('option', { name: 'Amazon Polly' }));
    await fill(user, screen.getByRole('textbox', { name: /^Polly voice/ }), 'Lea');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(sentBodies<Patch>(fetchMock, 'PATCH')[0]);
    expect(patch.config.behaviour).toMatchObject({ useAWSTTS: true, useGoogleTTS: false });
    expect(patch.config.aws).toMatchObject({ polly: { voiceId: 'Lea' } });

    await user.click(screen.getByRole('combobox', { name: /^server voice/i }));
    await user.click(screen.getByRole('option', { name: 'Google Text-to-Speech' }));
    expect(screen.getByRole('textbox', { name: /^Google voice/ })).toBeInTheDocument();
  });

  it('turns geolocation on with a checked address and a privacy note naming it', async () => {
    const { user, fetchMock } = await openSection(makeBot(), 'Geolocation');
    expect(screen.getByText(/no visitor's address is sent anywhere/)).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: /look up the visitor's country/i }));
    const address = screen.getByRole('textbox', { name: /^geolocation service/i });
    await user.clear(address);
    await fill(user, address, 'ftp://geo.example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A URL must start with http:// or https://.')).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'PATCH')).toHaveLength(0);

    await user.clear(address);
    await fill(user, address, 'https://geo.example.com');
    expect(
      screen.getByText(/IP address \(nothing else\) to https:\/\/geo\.example\.com/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(sentBodies<Patch>(fetchMock, 'PATCH')[0]);
    expect(patch.config.geojs).toMatchObject({ enabled: true, url: 'https://geo.example.com' });
  });

  it('tests the saved translator and geolocation service and says what happened in plain words', async () => {
    const { user, fetchMock } = await openSection(
      botWith((config) => {
        config.geojs.enabled = true;
        config.geojs.url = 'https://geo.example.com';
      }),
      'Geolocation',
    );
    const buttons = screen.getAllByRole('button', { name: 'Test connection' });
    await user.click(defined(buttons.at(-1)));
    expect(
      await screen.findByText('The geolocation service at https://geo.example.com answered HTTP 500.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Translation' }));
    await user.click(defined(screen.getAllByRole('button', { name: 'Test connection' })[0]));
    expect(await screen.findByText('"Hello" (detected en) in French: "Bonjour".')).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'POST')).toEqual(
      expect.arrayContaining([{ service: 'geolocation' }, { service: 'translate' }]),
    );
  });
});
