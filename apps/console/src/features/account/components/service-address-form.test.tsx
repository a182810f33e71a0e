import type { Account } from '@omnibot/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { ServiceAddressForm } from './service-address-form';

const NOW = '2026-01-01T00:00:00.000Z';
const ACCOUNT: Account = {
  id: 'a1',
  tenant_id: 't-acme',
  parent_tenant_id: 'platform',
  name: 'Acme Support',
  type: '2',
  is_active: true,
  address: { city: 'Lisbon' },
  info: { domain: 'acme.test' },
  created_by: null,
  updated_by: null,
  created_at: NOW,
  updated_at: NOW,
};

function renderForm(canEdit = true) {
  const api = stubAuthApi({
    handle: (method, path, body) =>
      method === 'PUT' && path === '/v1/Account/t-acme'
        ? json(200, { code: 200, account: { ...ACCOUNT, ...(body as object), updated_at: NOW } })
        : undefined,
  });
  const onSaved = vi.fn();
  renderRoute(<ServiceAddressForm account={ACCOUNT} canEdit={canEdit} onSaved={onSaved} />);
  return { api, onSaved };
}

// Big forms typed into under a loaded CI machine: more than the default 5 s.
describe('ServiceAddressForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('checks name, e-mail and domain with the contract before saving', async () => {
    const { api } = renderForm();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^Organisation name/));
    await user.click(screen.getByLabelText(/^E-mail/));
    await user.paste('not-an-address');
    await user.clear(screen.getByLabelText(/^Domain/));
    await user.click(screen.getByLabelText(/^Domain/));
    await user.paste('acme');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Enter a name')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('must be a domain such as example.com')).toBeInTheDocument();
    expect(api.calls()).not.toContain('PUT /v1/Account/t-acme');
  });

  it('sends the full account object with the edits and says it was saved', async () => {
    const { api, onSaved } = renderForm();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^Organisation name/));
    await user.click(screen.getByLabelText(/^Organisation name/));
    await user.paste('Acme Customer Care');
    await user.click(screen.getByLabelText(/^Street/));
    await user.paste('1 Harbour Road');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('The service address was saved.')).toBeInTheDocument();
    expect(api.bodyOf('/v1/Account/t-acme')).toMatchObject({
      id: 'a1',
      tenant_id: 't-acme',
      type: '2',
      is_active: true,
      name: 'Acme Customer Care',
      address: { street: '1 Harbour Road', city: 'Lisbon', state: '', country: '', zipcode: '' },
      info: { domain: 'acme.test' },
    });
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ name: 'Acme Customer Care' }));
  });

  it('is read-only for users who are not administrators', () => {
    renderForm(false);
    expect(screen.getByLabelText(/^Organisation name/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^City/)).toHaveValue('Lisbon');
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    expect(screen.getByText(/Only administrators can change these details/)).toBeInTheDocument();
  });
});
