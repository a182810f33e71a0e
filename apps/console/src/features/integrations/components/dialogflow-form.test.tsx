import type { Integration } from '@omnibot/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { DialogflowForm } from './dialogflow-form';
import { IntegrationForm } from './integration-form';

const EMAIL = 'omnibot@shop-project-42.iam.gserviceaccount.com';
const KEY = JSON.stringify({
  type: 'service_account',
  project_id: 'shop-project-42',
  private_key_id: 'c0ffee0000key9',
  private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n',
  client_email: EMAIL,
  token_uri: 'https://oauth2.googleapis.com/token',
});
const AGENT_ID = '1111aaaa-0000-4000-8000-000000000001';

const STORED: Integration = {
  id: '9c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f',
  tenant_id: 'acme',
  kind: 'chatbot',
  engine: 'dialogflowcx',
  name: 'Shop Dialogflow',
  settings: {
    service_account_key: '****key9',
    client_email: EMAIL,
    agents: [
      {
        agentName: 'support',
        agentId: AGENT_ID,
        agentImage: '',
        projectId: 'shop-project-42',
        location: 'europe-west1',
      },
    ],
    default_agent: 'support',
    fallback_agent: '',
    environment: '',
    language_code: 'en',
    languages: [],
    agent_per_language: false,
    endpoint: '',
  },
  bots: [],
  created_by: null,
  updated_by: null,
  created_at: '2026-12-01T10:00:00.000Z',
  updated_at: '2026-12-01T10:00:00.000Z',
};

function stub() {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'POST' && path === '/v1/integrations/test') {
        return json(200, { ok: true, latency_ms: 42, detail: `${EMAIL} reached support (Shop agent, en).` });
      }
      if (method === 'POST' && path === '/v1/integrations') {
        return json(201, { ...STORED, id: 'new-id', name: (body as { name: string }).name });
      }
      if (method === 'PATCH' && path === `/v1/integrations/${STORED.id}`) return json(200, STORED);
      return undefined;
    },
  });
}

const fileInput = () => {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
};
const keyFile = (text: string) => new File([text], 'key.json', { type: 'application/json' });

describe('DialogflowForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('refuses a file that is not a service-account key before anything is sent', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<DialogflowForm onSaved={vi.fn()} />);
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Shop agent');
    await user.upload(fileInput(), keyFile('{"type": "authorized_user"}'));
    expect(
      await screen.findByText('The key file is not a service-account key (its type is not service_account).'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    expect(screen.getByText('An agent needs a name')).toBeInTheDocument();
    expect(api.calls().some((call) => call.startsWith('POST'))).toBe(false);
  });

  it('reads the key file, edits the agents, tests the settings and adds the integration', async () => {
    const onSaved = vi.fn();
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<IntegrationForm onSaved={onSaved} />);
    await user.click(screen.getByRole('radio', { name: 'Dialogflow CX' }));
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Shop agent');
    await user.upload(fileInput(), keyFile(KEY));
    expect(await screen.findByText(EMAIL)).toBeInTheDocument();
    // The key's project fills the first agent's.
    expect(screen.getByRole('textbox', { name: /^project id/i })).toHaveValue('shop-project-42');
    await fill(user, screen.getByRole('textbox', { name: /^agent name/i }), 'support');
    await fill(user, screen.getByRole('textbox', { name: /^agent id/i }), AGENT_ID);
    const location = screen.getByRole('textbox', { name: /^location/i });
    await user.clear(location);
    await fill(user, location, 'europe-west1');
    await user.click(screen.getByRole('button', { name: 'Add agent' }));
    expect(screen.getAllByRole('textbox', { name: /^agent name/i })).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Remove agent 2' }));
    expect(screen.getAllByRole('textbox', { name: /^agent name/i })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connection works')).toBeInTheDocument();
    expect(screen.getByText(`${EMAIL} reached support (Shop agent, en).`)).toBeInTheDocument();
    const settings = {
      service_account_key: KEY,
      agents: [
        {
          agentName: 'support',
          agentId: AGENT_ID,
          agentImage: '',
          projectId: 'shop-project-42',
          location: 'europe-west1',
        },
      ],
      default_agent: '',
      fallback_agent: '',
      environment: '',
      language_code: 'en',
      languages: [],
      agent_per_language: false,
      endpoint: '',
    };
    expect(api.bodyOf('/v1/integrations/test')).toEqual({ engine: 'dialogflowcx', settings });
    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await screen.findByText('Shop agent was added.')).toBeInTheDocument();
    expect(api.bodyOf('/v1/integrations')).toEqual({ name: 'Shop agent', engine: 'dialogflowcx', settings });
  });

  it('shows a stored key only masked, keeps it, and asks for it again when the endpoint moves', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<IntegrationForm integration={STORED} onSaved={vi.fn()} />);
    expect(screen.getByText('****key9')).toBeInTheDocument();
    expect(screen.getByText(EMAIL)).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Dialogflow CX' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Advanced' }));
    await fill(user, screen.getByRole('textbox', { name: /^endpoint/i }), 'https://dialogflow.example.net');
    expect(
      await screen.findByText(/The service account key must be entered again when the endpoint changes/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(api.calls().some((call) => call.startsWith('PATCH'))).toBe(false);

    await user.clear(screen.getByRole('textbox', { name: /^endpoint/i }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Shop Dialogflow was saved.')).toBeInTheDocument();
    expect(api.bodyOf(`/v1/integrations/${STORED.id}`)).toMatchObject({
      name: 'Shop Dialogflow',
      settings: { service_account_key: '****key9', default_agent: 'support' },
    });
  });
});
