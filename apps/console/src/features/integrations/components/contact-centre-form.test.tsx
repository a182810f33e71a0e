import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { CONNECT_INTEGRATION, GENESYS_INTEGRATION } from '../../../test/integration-fixture';
import { renderRoute } from '../../../test/render';
import { ContactCentreForm } from './contact-centre-form';

const REFUSED = {
  ok: false,
  code: 'handover/provider-refused',
  message: 'Genesys Cloud refused the deployment: check the deployment id and the allowed origin.',
};

function stub(test: unknown = REFUSED) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'POST' && path === '/v1/integrations/test') return json(200, test);
      if (method === 'POST' && path === '/v1/integrations') {
        return json(201, { ...GENESYS_INTEGRATION, ...(body as object), id: 'new-id', bots: [] });
      }
      if (method === 'PATCH' && path === `/v1/integrations/${CONNECT_INTEGRATION.id}`) {
        return json(200, { ...CONNECT_INTEGRATION, name: (body as { name: string }).name });
      }
      return undefined;
    },
  });
}

describe('ContactCentreForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('checks the Genesys fields before anything is sent', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<ContactCentreForm onSaved={vi.fn()} />);
    const server = screen.getByRole('textbox', { name: /server url/i });
    await user.clear(server);
    await fill(user, server, 'https://webmessaging.example.com');
    await fill(user, screen.getByRole('textbox', { name: /^origin/i }), 'https://shop.example.com/page');
    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    expect(await screen.findByText('The name is required')).toBeInTheDocument();
    expect(screen.getByText(/The server URL is the web messaging socket/)).toBeInTheDocument();
    expect(screen.getByText(/deployment id is the Messenger deployment id/)).toBeInTheDocument();
    expect(screen.getByText(/The origin is a site address/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(api.calls().some((call) => call.startsWith('POST'))).toBe(false);
  });

  it('tests unsaved Genesys settings, says the result in plain words, then adds it as a contact centre', async () => {
    const onSaved = vi.fn();
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<ContactCentreForm onSaved={onSaved} />);
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Genesys desk');
    await fill(
      user,
      screen.getByRole('textbox', { name: /deployment id/i }),
      '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    );
    await fill(user, screen.getByRole('textbox', { name: /^origin/i }), 'https://shop.example.com');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connection failed')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Genesys Cloud refused the deployment: check the deployment id and the allowed origin.',
      ),
    ).toBeInTheDocument();
    expect(api.bodyOf('/v1/integrations/test')).toEqual({
      engine: 'genesys',
      settings: {
        server_url: 'wss://webmessaging.mypurecloud.com/v1',
        deployment_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        origin: 'https://shop.example.com',
      },
    });
    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await screen.findByText('Genesys desk was added.')).toBeInTheDocument();
    expect(api.bodyOf('/v1/integrations')).toMatchObject({
      name: 'Genesys desk',
      kind: 'ccaas',
      engine: 'genesys',
    });
  });

  it('asks a new Connect integration for its secret, and sends the fields with Markdown and advanced endpoints', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<ContactCentreForm initialEngine="connect" onSaved={vi.fn()} />);
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Connect desk');
    await fill(user, screen.getByRole('textbox', { name: /instance id/i }), 'not-a-uuid');
    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    expect(await screen.findByText('The instance id is a UUID')).toBeInTheDocument();
    expect(screen.getByText('Enter the secret access key of the access key id')).toBeInTheDocument();
    expect(api.calls().some((call) => call.startsWith('POST'))).toBe(false);

    const instance = screen.getByRole('textbox', { name: /instance id/i });
    await user.clear(instance);
    await fill(user, instance, '11111111-2222-4333-8444-555555555555');
    await fill(
      user,
      screen.getByRole('textbox', { name: /contact flow id/i }),
      '66666666-7777-4888-9999-000000000000',
    );
    await fill(user, screen.getByRole('textbox', { name: /access key id/i }), 'AKIAEXAMPLEKEY00001');
    await fill(user, screen.getByLabelText(/^secret access key/i), 'typed-secret-0001');
    await user.click(screen.getByRole('checkbox', { name: 'Markdown' }));
    await user.click(screen.getByRole('button', { name: 'Advanced' }));
    await fill(
      user,
      screen.getByRole('textbox', { name: /^connect endpoint/i }),
      'https://connect.example.com',
    );
    await user.click(screen.getByRole('button', { name: 'Add integration' }));
    await waitFor(() =>
      expect(api.bodyOf('/v1/integrations')).toEqual({
        name: 'Connect desk',
        kind: 'ccaas',
        engine: 'connect',
        settings: {
          region: 'us-west-2',
          instance_id: '11111111-2222-4333-8444-555555555555',
          contact_flow_id: '66666666-7777-4888-9999-000000000000',
          access_key_id: 'AKIAEXAMPLEKEY00001',
          secret_access_key: 'typed-secret-0001',
          content_types: ['text/plain', 'text/markdown'],
          display_name: 'Visitor',
          connect_endpoint: 'https://connect.example.com',
          participant_endpoint: '',
        },
      }),
    );
  });

  it('shows a stored secret only masked, keeps it, and asks for it again when the region moves', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<ContactCentreForm integration={CONNECT_INTEGRATION} onSaved={vi.fn()} />);
    expect(screen.getByLabelText('Stored Secret access key')).toHaveTextContent('****WXYZ');
    expect(screen.queryByRole('radio', { name: 'Genesys Cloud' })).not.toBeInTheDocument();
    const region = screen.getByRole('textbox', { name: /^region/i });
    await user.clear(region);
    await fill(user, region, 'us-east-1');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The secret access key must be entered again when the region or an endpoint changes',
    );
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(api.calls().some((call) => call.startsWith('POST') || call.startsWith('PATCH'))).toBe(false);

    await user.clear(region);
    await fill(user, region, 'eu-central-1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Connect desk was saved.')).toBeInTheDocument();
    expect(api.bodyOf(`/v1/integrations/${CONNECT_INTEGRATION.id}`)).toMatchObject({
      settings: { region: 'eu-central-1', secret_access_key: '****WXYZ' },
    });

    await user.clear(region);
    await fill(user, region, 'us-east-1');
    await user.click(screen.getByRole('button', { name: 'Replace key' }));
    await fill(user, screen.getByLabelText(/new secret access key/i), 'entered-again-0002');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      const patches = api.fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH');
      expect(patches).toHaveLength(2);
      expect(JSON.parse(patches[1]?.[1]?.body as string)).toMatchObject({
        settings: { region: 'us-east-1', secret_access_key: 'entered-again-0002' },
      });
    });
  });
});
