import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { CredentialPanel } from './credential-panel';

const PATH = '/v1/Account/t-acme';
const SECRET = 'sk_full_secret_value_only_once_WXYZ';

/** A credential service in memory: GET always answers the masked secret, changes answer it once in full. */
function stubCredentialApi(initial: { key: string } | null) {
  let current = initial;
  let counter = 0;
  return stubAuthApi({
    handle: (method, path) => {
      if (method === 'GET' && path === `${PATH}/credential`) {
        return json(
          200,
          current
            ? { code: 200, key: current.key, secret: '****WXYZ' }
            : { code: 404, message: 'No credential' },
        );
      }
      if (method === 'POST' && path === `${PATH}/credential`) {
        if (current)
          return json(409, { code: 'conflict', message: 'This organisation already has a credential.' });
        current = { key: 'key-created' };
        return json(201, { code: 201, key: current.key, secret: SECRET });
      }
      if (method === 'PUT' && path === `${PATH}/key`) {
        counter += 1;
        current = { key: `key-regenerated-${counter}` };
        return json(200, { code: 200, key: current.key, secret: '****WXYZ' });
      }
      return undefined;
    },
  });
}

async function confirmIn(title: string, button: string) {
  const dialog = await screen.findByRole('dialog', { name: title });
  await userEvent.setup().click(within(dialog).getByRole('button', { name: button }));
}

// Big forms typed into under a loaded CI machine: more than the default 5 s.
describe('CredentialPanel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('creates a credential after a confirmation and reveals the secret once, then only the masked value', async () => {
    const api = stubCredentialApi(null);
    const user = userEvent.setup();
    const view = renderRoute(<CredentialPanel tenantId="t-acme" canManage />);

    expect(await screen.findByRole('heading', { name: 'No API credential yet' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create credential' }));
    await confirmIn('Create the API credential?', 'Create credential');

    const reveal = await screen.findByRole('dialog', { name: 'Copy the API secret now' });
    expect(within(reveal).getByText(SECRET)).toBeInTheDocument();
    expect(within(reveal).getByText('key-created')).toBeInTheDocument();
    expect(within(reveal).getByText('It will not be shown again')).toBeInTheDocument();
    expect(within(reveal).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    expect(api.calls()).toContain(`POST ${PATH}/credential`);

    await user.click(within(reveal).getByRole('button', { name: 'I have copied the secret' }));
    await waitFor(() => expect(screen.queryByText(SECRET)).not.toBeInTheDocument());
    // The page refetched the credential: the key and the masked secret, never the full one.
    expect(await screen.findByText('****WXYZ')).toBeInTheDocument();
    expect(screen.getByText('key-created')).toBeInTheDocument();
    expect(document.body.textContent).not.toContain(SECRET);

    // As after a reload: a fresh screen shows the masked secret only.
    view.unmount();
    renderRoute(<CredentialPanel tenantId="t-acme" canManage />);
    expect(await screen.findByText('****WXYZ')).toBeInTheDocument();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('asks before a new key, says what stops working, and reveals no secret for it', async () => {
    const api = stubCredentialApi({ key: 'key-old' });
    const user = userEvent.setup();
    renderRoute(<CredentialPanel tenantId="t-acme" canManage />);

    await user.click(await screen.findByRole('button', { name: 'Regenerate key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Regenerate the key?' });
    expect(dialog).toHaveTextContent('stops working until it is given the new key');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls()).not.toContain(`PUT ${PATH}/key`);

    await user.click(screen.getByRole('button', { name: 'Regenerate key' }));
    await confirmIn('Regenerate the key?', 'Regenerate key');
    expect(await screen.findByText('key-regenerated-1')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Copy the API secret now' })).not.toBeInTheDocument();
    expect(await screen.findByText(/A new key was made/)).toBeInTheDocument();
  });

  it('explains reset and a new secret before sending them', async () => {
    stubCredentialApi({ key: 'key-old' });
    const user = userEvent.setup();
    renderRoute(<CredentialPanel tenantId="t-acme" canManage />);

    await user.click(await screen.findByRole('button', { name: 'Reset credential' }));
    expect(await screen.findByRole('dialog', { name: 'Reset the credential?' })).toHaveTextContent(
      'Every integration that still uses the old key and secret stops working',
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Regenerate secret' }));
    expect(await screen.findByRole('dialog', { name: 'Regenerate the secret?' })).toHaveTextContent(
      'The new secret is shown once',
    );
  });

  it("shows the server's message when a change is refused", async () => {
    stubAuthApi({
      handle: (method, path) => {
        if (method === 'GET' && path === `${PATH}/credential`) {
          return json(200, { code: 404, message: 'No credential' });
        }
        if (method === 'POST') {
          return json(409, { code: 'conflict', message: 'This organisation already has a credential.' });
        }
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderRoute(<CredentialPanel tenantId="t-acme" canManage />);
    await user.click(await screen.findByRole('button', { name: 'Create credential' }));
    await confirmIn('Create the API credential?', 'Create credential');
    expect(await screen.findByText('This organisation already has a credential.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Copy the API secret now' })).not.toBeInTheDocument();
  });

  it('is read-only for users who are not administrators', async () => {
    stubCredentialApi({ key: 'key-old' });
    renderRoute(<CredentialPanel tenantId="t-acme" canManage={false} />);
    expect(await screen.findByText('key-old')).toBeInTheDocument();
    expect(
      screen.getByText('Only administrators can create, reset or regenerate the credential.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Regenerate|Reset|Create/ })).not.toBeInTheDocument();
  });
});
