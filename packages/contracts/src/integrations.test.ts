import { describe, expect, it } from 'vitest';
import {
  CreateIntegrationBodySchema,
  INTEGRATION_KIND_OF,
  IntegrationListQuerySchema,
  IntegrationSchema,
  isContactCentreEngine,
  TestIntegrationBodySchema,
  UpdateIntegrationBodySchema,
} from './integrations';

const GENESYS = {
  server_url: 'wss://webmessaging.mypurecloud.com/v1',
  deployment_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  origin: 'https://shop.example.com',
};
const CONNECT = {
  region: 'eu-central-1',
  instance_id: '11111111-2222-4333-8444-555555555555',
  contact_flow_id: '66666666-7777-4888-9999-000000000000',
  access_key_id: 'AKIAEXAMPLEKEY00001',
  secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

describe('contact-centre integration bodies', () => {
  it('takes Genesys and Connect settings with the kind ccaas and the Connect defaults', () => {
    expect(
      CreateIntegrationBodySchema.parse({ name: 'Genesys', engine: 'genesys', settings: GENESYS }),
    ).toEqual({
      name: 'Genesys',
      kind: 'ccaas',
      engine: 'genesys',
      settings: GENESYS,
    });
    const connect = CreateIntegrationBodySchema.parse({
      name: 'Connect',
      kind: 'ccaas',
      engine: 'connect',
      settings: { ...CONNECT, content_types: ['text/markdown'] },
    });
    expect(connect).toMatchObject({
      kind: 'ccaas',
      settings: {
        ...CONNECT,
        content_types: ['text/plain', 'text/markdown'],
        display_name: 'Visitor',
        connect_endpoint: '',
        participant_endpoint: '',
      },
    });
  });

  it.each([
    ['a chatbot kind for Genesys', { name: 'x', kind: 'chatbot', engine: 'genesys', settings: GENESYS }],
    ['a chatbot kind for Connect', { name: 'x', kind: 'chatbot', engine: 'connect', settings: CONNECT }],
    ['Connect settings under genesys', { name: 'x', engine: 'genesys', settings: CONNECT }],
    [
      'an https Genesys socket',
      { name: 'x', engine: 'genesys', settings: { ...GENESYS, server_url: 'https://x.test' } },
    ],
    ['a region that is not one', { name: 'x', engine: 'connect', settings: { ...CONNECT, region: 'mars' } }],
    [
      'a secret with a space',
      { name: 'x', engine: 'connect', settings: { ...CONNECT, secret_access_key: 'a b' } },
    ],
    [
      'an endpoint with credentials',
      { name: 'x', engine: 'connect', settings: { ...CONNECT, connect_endpoint: 'https://u:p@x.test' } },
    ],
    ['an unknown setting', { name: 'x', engine: 'genesys', settings: { ...GENESYS, token: 't' } }],
  ])('refuses %s', (_label, body) => {
    expect(CreateIntegrationBodySchema.safeParse(body).success).toBe(false);
  });

  it('names the kind an engine must have', () => {
    const result = CreateIntegrationBodySchema.safeParse({
      name: 'x',
      kind: 'chatbot',
      engine: 'connect',
      settings: CONNECT,
    });
    expect(result.error?.issues[0]?.message).toBe('The kind of connect integrations is ccaas.');
  });

  it('changes and tries contact-centre settings, and lists by kind', () => {
    expect(UpdateIntegrationBodySchema.safeParse({ settings: GENESYS }).success).toBe(true);
    expect(
      UpdateIntegrationBodySchema.safeParse({ settings: { ...CONNECT, secret_access_key: '****MPLE' } })
        .success,
    ).toBe(true);
    expect(UpdateIntegrationBodySchema.safeParse({ settings: { server_url: 'wss://x.test' } }).success).toBe(
      false,
    );
    expect(TestIntegrationBodySchema.safeParse({ engine: 'connect', settings: CONNECT }).success).toBe(true);
    expect(
      TestIntegrationBodySchema.safeParse({ id: 'nope', engine: 'genesys', settings: GENESYS }).success,
    ).toBe(false);
    expect(IntegrationListQuerySchema.parse({ kind: 'ccaas', engine: 'connect' })).toEqual({
      kind: 'ccaas',
      engine: 'connect',
    });
    expect(IntegrationListQuerySchema.safeParse({ kind: 'crm' }).success).toBe(false);
  });

  it('knows the kind of every engine', () => {
    expect(INTEGRATION_KIND_OF).toEqual({
      builtin: 'chatbot',
      openai: 'chatbot',
      dialogflowcx: 'chatbot',
      lex: 'chatbot',
      bedrock: 'chatbot',
      genesys: 'ccaas',
      connect: 'ccaas',
    });
    expect(isContactCentreEngine('connect')).toBe(true);
    expect(isContactCentreEngine('openai')).toBe(false);
  });

  it('reads a Connect view with the settings it was given and strips anything else', () => {
    const view = IntegrationSchema.parse({
      id: 'i',
      tenant_id: 't',
      kind: 'ccaas',
      engine: 'connect',
      name: 'Connect',
      settings: {
        ...CONNECT,
        secret_access_key: '****MPLE',
        content_types: ['text/plain'],
        display_name: 'Visitor',
        connect_endpoint: '',
        participant_endpoint: '',
        sealed: 'v1:xyz',
      },
      bots: [],
      created_by: null,
      updated_by: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    expect(view.settings).not.toHaveProperty('sealed');
    expect(view.settings).toMatchObject({ secret_access_key: '****MPLE' });
  });
});
