import { AUTH_MESSAGES } from '@omnibot/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { UserCreateForm } from './user-create-form';
import { defined } from '../../../test/defined';

const NOW = '2026-01-01T00:00:00.000Z';
const created = (email: string) => ({
  code: 201,
  user: {
    id: 'u-new',
    tenant_id: 't-acme',
    is_active: true,
    email,
    username: null,
    role: 'user',
    address: {},
    info: { firstname: 'Ada', lastname: 'Lovelace' },
    must_change_password: false,
    email_verified: true,
    created_by: 'u1',
    created_at: NOW,
    updated_by: 'u1',
    updated_at: NOW,
  },
});

function renderForm(
  answer?: (body: unknown) => Response,
  roles = ['administrator', 'user', 'agent'] as const,
) {
  const api = stubAuthApi({
    handle: (method, path, body) =>
      method === 'POST' && path === '/v1/Account/t-acme/User' ? answer?.(body) : undefined,
  });
  const onCreated = vi.fn();
  renderRoute(
    <UserCreateForm tenantId="t-acme" tenantName="Acme Support" roles={roles} onCreated={onCreated} />,
  );
  return { api, onCreated };
}

async function fill(values: { email?: string; firstname?: string; lastname?: string }) {
  const user = userEvent.setup();
  if (values.email) await user.type(screen.getByLabelText(/^E-mail/), values.email);
  if (values.firstname) await user.type(screen.getByLabelText(/^First name/), values.firstname);
  if (values.lastname) await user.type(screen.getByLabelText(/^Last name/), values.lastname);
  await user.click(screen.getByRole('button', { name: 'Add user and send invitation' }));
}

// Big forms typed into under a loaded CI machine: more than the default 5 s.
describe('UserCreateForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for e-mail and names before anything is sent', async () => {
    const { api } = renderForm();
    await fill({});
    expect(await screen.findByText('Enter an e-mail address')).toBeInTheDocument();
    expect(screen.getByText('Enter the first name')).toBeInTheDocument();
    expect(screen.getByText('Enter the last name')).toBeInTheDocument();

    await fill({ email: 'not-an-address', firstname: 'Ada', lastname: 'Lovelace' });
    expect(await screen.findByText(AUTH_MESSAGES.invalidEmail)).toBeInTheDocument();
    expect(api.calls()).not.toContain('POST /v1/Account/t-acme/User');
  });

  it('offers only the roles the caller may give', async () => {
    renderForm();
    await userEvent.setup().click(defined(screen.getAllByLabelText(/^Role/)[0]));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options.join(' ')).toContain('Administrator');
    expect(options.join(' ')).toContain('Agent');
    expect(options.join(' ')).not.toContain('Master');
  });

  it("puts the server's domain refusal on the e-mail field", async () => {
    renderForm(() =>
      json(403, { code: 'auth/unauthorized-domain', message: AUTH_MESSAGES.domainNotAllowed }),
    );
    await fill({ email: 'ada@elsewhere.test', firstname: 'Ada', lastname: 'Lovelace' });
    await waitFor(() =>
      expect(screen.getByLabelText(/^E-mail/)).toHaveAccessibleDescription(
        expect.stringContaining(AUTH_MESSAGES.domainNotAllowed) as string,
      ),
    );
  });

  it('invites the person and says an invitation mail was sent', async () => {
    const { api, onCreated } = renderForm(() => json(201, created('ada@acme.test')));
    await fill({ email: 'ada@acme.test', firstname: 'Ada', lastname: 'Lovelace' });
    expect(await screen.findByText(/An invitation mail was sent to ada@acme\.test/)).toBeInTheDocument();
    expect(api.bodyOf('/v1/Account/t-acme/User')).toEqual({
      email: 'ada@acme.test',
      role: 'user',
      info: { firstname: 'Ada', lastname: 'Lovelace' },
    });
    expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 'u-new' }));
  });
});
