import type { Profile } from '@omnibot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { UserEditForm } from './user-edit-form';

const NOW = '2026-01-01T00:00:00.000Z';
const LAST_ADMIN =
  'This is the last active administrator of the organisation. Make someone else an administrator first.';
const ADA: Profile = {
  id: 'u2',
  tenant_id: 't-acme',
  is_active: true,
  email: 'ada@acme.test',
  username: null,
  role: 'administrator',
  address: {},
  info: { firstname: 'Ada', lastname: 'Lovelace' },
  must_change_password: false,
  email_verified: true,
  created_by: 'u1',
  created_at: NOW,
  updated_by: 'u1',
  updated_at: NOW,
};

function renderForm(
  answer: (body: unknown) => Response,
  props: Partial<Parameters<typeof UserEditForm>[0]> = {},
) {
  const api = stubAuthApi({
    handle: (method, path, body) =>
      method === 'PUT' && path === '/v1/Account/t-acme/User/u2' ? answer(body) : undefined,
  });
  renderRoute(
    <UserEditForm
      user={ADA}
      actorRole="administrator"
      assignableRoles={['administrator', 'user', 'agent']}
      canManage
      isSelf={false}
      {...props}
    />,
  );
  return api;
}

// Big forms typed into under a loaded CI machine: more than the default 5 s.
describe('UserEditForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks before disabling, then shows the 409 for the last active administrator clearly', async () => {
    const api = renderForm(() => json(409, { code: 'last_administrator', message: LAST_ADMIN }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('switch', { name: /^Active/ }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    const dialog = await screen.findByRole('dialog', { name: 'Disable this user?' });
    expect(dialog).toHaveTextContent('Ada Lovelace is signed out at once');
    await user.click(within(dialog).getByRole('button', { name: 'Disable user' }));

    await waitFor(() =>
      expect(
        screen
          .getAllByRole('alert')
          .some((alert) => alert.textContent?.includes('An administrator must remain')),
      ).toBe(true),
    );
    expect(screen.getAllByText(LAST_ADMIN).length).toBeGreaterThan(0);
    expect(api.bodyOf('/v1/Account/t-acme/User/u2')).toMatchObject({
      is_active: false,
      role: 'administrator',
    });
  });

  it('saves role and details with a success toast', async () => {
    const api = renderForm((body) =>
      json(200, { code: 200, user: { ...ADA, ...(body as object), username: 'ada' } }),
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Display name/), 'ada');
    await user.type(screen.getByLabelText(/^Mobile phone/), '+351 912 345 678');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Ada Lovelace was saved.')).toBeInTheDocument();
    expect(api.bodyOf('/v1/Account/t-acme/User/u2')).toMatchObject({
      username: 'ada',
      role: 'administrator',
      is_active: true,
      info: { firstname: 'Ada', lastname: 'Lovelace', mobile: '+351 912 345 678' },
    });
  });

  it('checks the details with the contract before saving', async () => {
    const api = renderForm(() => json(200, {}));
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Extension/), '1'.repeat(21));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/Too big|at most 20/i)).toBeInTheDocument();
    expect(api.calls()).not.toContain('PUT /v1/Account/t-acme/User/u2');
  });

  it('leaves role and status alone for somebody who is not an administrator', () => {
    renderForm(() => json(200, {}), {
      user: { ...ADA, role: 'user' },
      canManage: false,
      actorRole: 'user',
      assignableRoles: [],
      isSelf: true,
    });
    expect(screen.getByText('Only administrators can change roles or disable users.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /^Active/ })).toBeDisabled();
    // Their own details stay editable.
    expect(screen.getByLabelText(/^Mobile phone/)).not.toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeInTheDocument();
  });

  it('refuses changes to a user who ranks above the caller', () => {
    renderForm(() => json(200, {}), { user: { ...ADA, role: 'master' } });
    expect(screen.getByText('You cannot change a user whose role is above yours.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Mobile phone/)).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
  });
});
