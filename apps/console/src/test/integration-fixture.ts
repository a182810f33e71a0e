import { type Bot, type Integration, WidgetConfigSchema } from '@omnibot/contracts';
import { RAG_ID } from './rag-fixture';

const NOW = '2026-01-01T00:00:00.000Z';

export const OPENAI_ID = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
export const BUILTIN_ID = '4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a';
export const BOT_ID = '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c';

export const OPENAI_INTEGRATION: Integration = {
  id: OPENAI_ID,
  tenant_id: 't-acme',
  kind: 'chatbot',
  engine: 'openai',
  name: 'House GPT',
  settings: {
    base_url: 'https://llm.example.com/v1',
    model: 'gpt-test',
    api_key: '****wxyz',
    max_tokens: 1024,
    temperature: 0.7,
  },
  bots: [],
  created_by: 'u1',
  updated_by: 'u1',
  created_at: NOW,
  updated_at: NOW,
};

export const BUILTIN_INTEGRATION: Integration = {
  ...OPENAI_INTEGRATION,
  id: BUILTIN_ID,
  engine: 'builtin',
  name: 'Support RAG',
  settings: { rag_id: RAG_ID },
  bots: [{ id: BOT_ID, name: 'Shop helper', enabled: true }],
};

/** A bot as the API answers it (secrets masked), with some look and texts of its own. */
export const BOT: Bot = {
  id: BOT_ID,
  tenant_id: 't-acme',
  name: 'Shop helper',
  enabled: true,
  config: WidgetConfigSchema.parse({
    identity: { displayName: 'Shop desk' },
    welcome: { welcomeText: 'Welcome to the shop!' },
    launcher: { position: 'left', background: '#ff8800' },
    window: { width: 500 },
    openai: { apiKey: '****abcd' },
  }),
  config_version: 1,
  etag: `"${BOT_ID}-1"`,
  created_by: 'u1',
  updated_by: 'u1',
  created_at: NOW,
  updated_at: NOW,
};

export const GENESYS_ID = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
export const CONNECT_ID = '8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e';

/** A Genesys Cloud contact-centre integration as the API answers it. */
export const GENESYS_INTEGRATION: Integration = {
  ...OPENAI_INTEGRATION,
  id: GENESYS_ID,
  kind: 'ccaas',
  engine: 'genesys',
  name: 'Genesys desk',
  settings: {
    server_url: 'wss://webmessaging.mypurecloud.de/v1',
    deployment_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    origin: 'https://shop.example.com',
  },
  bots: [{ id: BOT_ID, name: 'Shop helper', enabled: true }],
};

/** An Amazon Connect contact-centre integration as the API answers it (its secret masked). */
export const CONNECT_INTEGRATION: Integration = {
  ...OPENAI_INTEGRATION,
  id: CONNECT_ID,
  kind: 'ccaas',
  engine: 'connect',
  name: 'Connect desk',
  settings: {
    region: 'eu-central-1',
    instance_id: '11111111-2222-4333-8444-555555555555',
    contact_flow_id: '66666666-7777-4888-9999-000000000000',
    access_key_id: 'AKIAEXAMPLEKEY00001',
    secret_access_key: '****WXYZ',
    content_types: ['text/plain'],
    display_name: 'Visitor',
    connect_endpoint: '',
    participant_endpoint: '',
  },
  bots: [],
};
