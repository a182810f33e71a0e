import type { Integration } from '@omnibot/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { OPENAI_INTEGRATION } from '../../../test/integration-fixture';
import { renderRoute } from '../../../test/render';
import { AwsEngineForm } from './aws-engine-form';
import { IntegrationForm } from './integration-form';

const LEX_INTEGRATION: Integration = {
  ...OPENAI_INTEGRATION,
  id: '7b1c2d3e-0000-4000-8000-00000000a1ex',
  engine: 'lex',
  name: 'Flower shop',
  settings: {
    region: 'us-west-2',
    bot_id: 'FLOWERBOT1',
    bot_alias_id: 'TSTALIASID',
    locale_id: 'en_US',
    access_key_id: 'AKIALEXTESTKEY000001',
    secret_access_key: '****abcd',
    handover_intent: 'TalkToAgent',
    endpoint: '',
  },
  bots: [],
};

const OK = {
  ok: true,
  latency_ms: 42,
  detail: 'The Lex bot FLOWERBOT1 (alias TSTALIASID, en_US) answered in 42 ms.',
};

function stub(test: unknown = OK) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'POST' && path === '/v1/integrations/test') return json(200, test);
      if (method === 'POST' && path === '/v1/integrations') {
        return json(201, { ...LEX_INTEGRATION, ...(body as object), id: 'new-id', bots: [] });
      }
      if (method === 'PATCH' && path === `/v1/integrations/${LEX_INTEGRATION.id}`) {
        return json(200, { ...LEX_INTEGRATION, name: (body as { name: string }).name });
      }
      return undefined;
    },
  });
}

describe('AwsEngineForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is reached from the engine switch, checks the Lex fields before anything is sent, then tests and adds', async () => {
    const onSaved = vi.fn();
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<IntegrationForm onSaved={onSaved} />);
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Flower shop');
    await user.click(screen.getByRole('radio', { name: 'Amazon Lex V2' }));
    // The name typed before the switch is kept.
    expect(screen.getByRole('textbox', { name: /^name/i })).toHaveValue('Flower shop');
    await fill(user, screen.getByRole('textbox', { name: /^bot id/i }), 'short');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(
      await screen.findByText('The bot id is the 10 letters and digits Lex shows for the bot'),
    ).toBeInTheDocument();
    expect(screen.getByText('Enter the access key id')).toBeInTheDocument();
    expect(screen.getByText('Enter the secret access key')).toBeInTheDocument();
    expect(api.calls().some((call) => call.startsWith('POST'))).toBe(false);

    const botId = screen.getByRole('textbox', { name: /^bot id/i });
    await user.clear(botId);
    await fill(user, botId, 'FLOWERBOT1');
    await fill(user, screen.getByRole('textbox', { name: /^alias id/i }), 'TSTALIASID');
    await fill(user, screen.getByRole('textbox', { name: /access key id/i }), 'AKIALEXTESTKEY000001');
    await fill(user, screen.getByLabelText(/^secret access key/i), 'typed-lex-secret-0001');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(OK.detail)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.bodyOf('/v1/integrations')).toEqual({
      name: 'Flower shop',
      kind: 'chatbot',
      engine: 'lex',
      settings: {
        region: 'us-west-2',
        endpoint: '',
        access_key_id: 'AKIALEXTESTKEY000001',
        bot_id: 'FLOWERBOT1',
        bot_alias_id: 'TSTALIASID',
        locale_id: 'en_US',
        handover_intent: 'TalkToAgent',
        secret_access_key: 'typed-lex-secret-0001',
      },
    });
    // The secret typed in is gone from the form once saved.
    expect(screen.getByLabelText(/^secret access key/i)).toHaveValue('');
  });

  it('asks Bedrock for an API key or access keys depending on the authentication, and says a refusal in plain words', async () => {
    const refused = {
      ok: false,
      code: 'provider/unauthorized',
      message:
        'Amazon Bedrock answered HTTP 403 AccessDeniedException, the access key is not allowed to do this.',
    };
    const api = stub(refused);
    const user = userEvent.setup();
    renderRoute(<AwsEngineForm initialEngine="bedrock" onSaved={vi.fn()} />);
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Claude');
    await fill(
      user,
      screen.getByRole('textbox', { name: /model id/i }),
      'anthropic.claude-3-haiku-20240307-v1:0',
    );
    await user.click(screen.getByRole('radio', { name: 'Bedrock API key' }));
    expect(screen.queryByRole('textbox', { name: /access key id/i })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Enter the Bedrock API key')).toBeInTheDocument();
    await fill(
      user,
      screen.getByLabelText(/^bedrock api key/i, { selector: 'input[type="password"]' }),
      'ABSK-typed-bedrock-key-0001',
    );
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connection failed')).toBeInTheDocument();
    expect(screen.getByText(refused.message)).toBeInTheDocument();
    expect(api.bodyOf('/v1/integrations/test')).toMatchObject({
      engine: 'bedrock',
      settings: {
        auth: 'api_key',
        api_key: 'ABSK-typed-bedrock-key-0001',
        max_tokens: 1024,
        temperature: 0.7,
      },
    });
  });

  it('shows a stored secret only masked, keeps it, and asks for it again when the endpoint moves', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<AwsEngineForm integration={LEX_INTEGRATION} onSaved={vi.fn()} />);
    expect(screen.getByLabelText('Stored Secret access key')).toHaveTextContent('****abcd');
    expect(screen.queryByRole('radio', { name: 'Amazon Bedrock' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Advanced' }));
    const endpoint = screen.getByRole('textbox', { name: /lex runtime endpoint/i });
    await fill(user, endpoint, 'https://lex.example.com');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The stored secret must be entered again when the region or the endpoint changes',
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(api.calls().some((call) => call.startsWith('PATCH'))).toBe(false);

    await user.clear(endpoint);
    await fill(user, screen.getByRole('textbox', { name: /hand-over intent/i }), 'Human');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Flower shop was saved.')).toBeInTheDocument();
    expect(api.bodyOf(`/v1/integrations/${LEX_INTEGRATION.id}`)).toMatchObject({
      settings: { secret_access_key: '****abcd', handover_intent: 'TalkToAgentHuman', endpoint: '' },
    });
  });
});
