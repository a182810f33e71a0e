import type { Profile } from '@omnibot/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { ProfileForm } from './profile-form';

const NOW = '2026-01-01T00:00:00.000Z';
const GRACE: Profile = {
  id: 'u1',
  tenant_id: 't-acme',
  is_active: true,
  email: 'grace@acme.test',
  username: 'Grace Hopper',
  role: 'administrator',
  address: { city: 'Arlington' },
  info: { firstname: 'Grace', lastname: 'Hopper', work: '+1 555 0100' },
  must_change_password: false,
  email_verified: true,
  created_by: null,
  created_at: NOW,
  updated_by: null,
  updated_at: NOW,
};

function renderForm() {
  const api = stubAuthApi({
    handle: (method, path, body) =>
      method === 'PUT' && path === '/v1/Account/t-acme/User/u1'
        ? json(200, { code: 200, user: { ...GRACE, ...(body as object) } })
        : undefined,
  });
  const onSaved = vi.fn();
  renderRoute(<ProfileForm profile={GRACE} onSaved={onSaved} />);
  return { api, onSaved };
}

// Big forms typed into under a loaded CI machine: more than the default 5 s.
describe('ProfileForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the profile as stored', () => {
    renderForm();
    expect(screen.getByText('Signed in as grace@acme.test')).toBeInTheDocument();
    expect(screen.getByLabelText(/^First name/)).toHaveValue('Grace');
    expect(screen.getByLabelText(/^Work phone/)).toHaveValue('+1 555 0100');
    expect(screen.getByLabelText(/^City/)).toHaveValue('Arlington');
  });

  it('checks lengths with the contract before saving', async () => {
    const { api } = renderForm();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^First name/));
    await user.click(screen.getByLabelText(/^First name/));
    await user.paste('G'.repeat(101));
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText(/Too big|at most 100/i)).toBeInTheDocument();
    expect(api.calls()).not.toContain('PUT /v1/Account/t-acme/User/u1');
  });

  it('saves names, phones and address; an empty display name is cleared', async () => {
    const { api, onSaved } = renderForm();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^Display name/));
    await user.type(screen.getByLabelText(/^Middle name/), 'Brewster');
    await user.type(screen.getByLabelText(/^Extension/), '42');
    await user.type(screen.getByLabelText(/^Postal code/), '22201');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));

    expect(await screen.findByText('Your profile was saved.')).toBeInTheDocument();
    expect(api.bodyOf('/v1/Account/t-acme/User/u1')).toMatchObject({
      username: null,
      info: {
        firstname: 'Grace',
        middlename: 'Brewster',
        lastname: 'Hopper',
        work: '+1 555 0100',
        extension: '42',
      },
      address: { city: 'Arlington', zipcode: '22201' },
    });
    expect(api.bodyOf('/v1/Account/t-acme/User/u1')).not.toHaveProperty('role');
    expect(onSaved).toHaveBeenCalled();
  });
});
