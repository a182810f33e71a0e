import { describe, expect, it } from 'vitest';
import {
  dialogflowAgentFor,
  dialogflowApiBaseOf,
  DialogflowCxSettingsSchema,
  dialogflowLanguageOf,
  parseServiceAccountKey,
} from './dialogflow';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n';
const key = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'shop-project-42',
    private_key_id: 'abcd1234',
    private_key: PEM,
    client_email: 'bot@shop-project-42.iam.gserviceaccount.com',
    token_uri: 'https://oauth2.googleapis.com/token',
    ...extra,
  });
const agent = (agentName: string, location = 'global') => ({
  agentName,
  agentId: '1111aaaa-0000-4000-8000-000000000001',
  agentImage: '',
  projectId: 'shop-project-42',
  location,
});

const problemOf = (text: string) => {
  const parsed = parseServiceAccountKey(text);
  return 'error' in parsed ? parsed.error : '';
};

describe('Dialogflow CX settings', () => {
  it('reads a service-account key file and says what is wrong with a bad one', () => {
    expect(parseServiceAccountKey(key())).toMatchObject({
      key: { client_email: 'bot@shop-project-42.iam.gserviceaccount.com', private_key_id: 'abcd1234' },
    });
    expect(parseServiceAccountKey(key({ token_uri: undefined }))).toMatchObject({
      key: { token_uri: 'https://oauth2.googleapis.com/token' },
    });
    expect(problemOf(key())).toBe('');
    expect(problemOf('{')).toMatch(/not JSON/u);
    expect(problemOf(key({ type: 'authorized_user' }))).toMatch(/type is not service_account/u);
    expect(problemOf(key({ private_key: 'x' }))).toMatch(/private_key/u);
    expect(problemOf(key({ token_uri: 'file:///etc/passwd' }))).toMatch(/token_uri/u);
  });

  it('defaults the default agent to the first and checks both agents are listed', () => {
    const parsed = DialogflowCxSettingsSchema.parse({
      service_account_key: key(),
      agents: [agent('support'), agent('backup')],
    });
    expect(parsed).toMatchObject({ default_agent: 'support', fallback_agent: '', language_code: 'en' });
    expect(
      DialogflowCxSettingsSchema.safeParse({ service_account_key: '****1234', agents: [agent('a')] }).success,
    ).toBe(true);
    for (const bad of [
      { agents: [agent('a')], default_agent: 'b' },
      { agents: [agent('a')], fallback_agent: 'b' },
      { agents: [agent('a'), agent('a')] },
      { agents: [] },
      { agents: [agent('a', 'EU west')] },
    ]) {
      expect(DialogflowCxSettingsSchema.safeParse({ service_account_key: key(), ...bad }).success).toBe(
        false,
      );
    }
  });

  it('chooses the regional host, the language and the agent of a language', () => {
    expect(dialogflowApiBaseOf({ location: 'global' }, '')).toBe('https://dialogflow.googleapis.com');
    expect(dialogflowApiBaseOf({ location: 'europe-west1' }, '')).toBe(
      'https://europe-west1-dialogflow.googleapis.com',
    );
    expect(dialogflowApiBaseOf({ location: 'europe-west1' }, 'http://127.0.0.1:9/')).toBe(
      'http://127.0.0.1:9',
    );
    const settings = { languages: ['en', 'fr', 'pt-BR'], language_code: 'en' };
    expect(dialogflowLanguageOf(settings, 'fr-CA')).toBe('fr');
    expect(dialogflowLanguageOf(settings, 'pt-br')).toBe('pt-BR');
    expect(dialogflowLanguageOf(settings, 'de')).toBe('en');
    expect(dialogflowLanguageOf({ languages: [], language_code: 'en' }, 'de')).toBe('de');
    const agents = { agents: [agent('support'), agent('support-fr')], default_agent: 'support' };
    expect(dialogflowAgentFor({ ...agents, agent_per_language: true }, 'fr')?.agentName).toBe('support-fr');
    expect(dialogflowAgentFor({ ...agents, agent_per_language: true }, 'de')?.agentName).toBe('support');
    expect(dialogflowAgentFor({ ...agents, agent_per_language: false }, 'fr')?.agentName).toBe('support');
  });
});
