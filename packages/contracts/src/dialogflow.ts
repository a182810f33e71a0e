import { z } from 'zod';
import { safeString } from './text';
import { SECRET_MASK_PREFIX } from './widget-config';

/**
 * Settings of a Dialogflow CX integration: the agents a bot may talk to over the Dialogflow CX v3 REST API, and the
 * Google service-account key whose signed JWT is exchanged for an access token. The key follows the secrets' rule:
 * a new key (the JSON file as Google gives it), or the masked key as it was read, which keeps the stored one.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/u;

/** The largest service-account key file accepted (Google's are about 2.3 KB). */
export const DIALOGFLOW_KEY_MAX = 16_384;
export const DIALOGFLOW_AGENTS_MAX = 20;
/** Google's own OAuth2 token endpoint, the `token_uri` of every key it issues. */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** A Google Cloud project id: 6 to 30 lower-case letters, digits and hyphens, starting with a letter. */
const PROJECT_PATTERN = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/u;
/** A Dialogflow CX location: `global` or a region such as us-central1, europe-west1, or a multi-region (us, eu). */
const LOCATION_PATTERN = /^[a-z][a-z0-9-]{0,62}$/u;
/** An agent or environment id (a UUID as Dialogflow makes them). */
const RESOURCE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/u;
/** A language code as Dialogflow takes it: en, en-us, pt-BR, zh-Hant... */
const LANGUAGE_PATTERN = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/u;

function httpAddress(value: string): URL | null {
  if (CONTROL.test(value) || !URL.canParse(value)) return null;
  const url = new URL(value);
  if (!['https:', 'http:'].includes(url.protocol) || url.username || url.password || url.hash) return null;
  return url;
}

/** The fields of a Google service-account key the engine uses. */
export interface ServiceAccountKey {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  token_uri: string;
}

/**
 * Reads a service-account key file (JSON as Google Cloud gives it): the key, or what is wrong with it in plain
 * words. The private key's cryptography is checked by the server.
 */
export function parseServiceAccountKey(text: string): { key: ServiceAccountKey } | { error: string } {
  if (text.length > DIALOGFLOW_KEY_MAX)
    return { error: 'The key file is larger than a service-account key.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'The key file is not JSON; download the key again as JSON from Google Cloud.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'The key file is not a service-account key.' };
  }
  const record = value as Record<string, unknown>;
  const text_ = (name: string) => (typeof record[name] === 'string' ? record[name] : '');
  if (record.type !== 'service_account') {
    return { error: 'The key file is not a service-account key (its type is not service_account).' };
  }
  const email = text_('client_email');
  if (!/^[^@\s]+@[^@\s]+$/u.test(email)) return { error: 'The key file has no client_email.' };
  const privateKey = text_('private_key');
  if (!privateKey.includes('-----BEGIN PRIVATE KEY-----')) {
    return { error: 'The key file has no private_key in PEM form.' };
  }
  const tokenUri = text_('token_uri') || GOOGLE_TOKEN_URI;
  if (httpAddress(tokenUri) === null) return { error: 'The key file token_uri is not an http(s) address.' };
  return {
    key: {
      type: 'service_account',
      project_id: text_('project_id'),
      private_key_id: text_('private_key_id'),
      private_key: privateKey,
      client_email: email,
      token_uri: tokenUri,
    },
  };
}

/** How the console sees a stored key: the mask with the last four characters of its key id. */
export function maskServiceAccountKey(key: Pick<ServiceAccountKey, 'private_key_id'>): string {
  return `${SECRET_MASK_PREFIX}${key.private_key_id.slice(-4)}`;
}

const identifier = (label: string, pattern: RegExp, hint: string) =>
  z.string(`${label} is required`).trim().regex(pattern, `${label} ${hint}`);

/** One agent a bot may talk to. */
export const DialogflowAgentSchema = z.strictObject({
  agentName: safeString()
    .trim()
    .min(1, 'An agent needs a name')
    .max(120, 'An agent name is at most 120 characters'),
  agentId: identifier('The agent id', RESOURCE_ID_PATTERN, 'is the id at the end of the agent name (a UUID)'),
  agentImage: z
    .string()
    .trim()
    .max(2000, 'The agent image address is at most 2000 characters')
    .refine((value) => value === '' || httpAddress(value) !== null, 'The agent image is an http(s) address')
    .default(''),
  projectId: identifier(
    'The project id',
    PROJECT_PATTERN,
    'is a Google Cloud project id such as my-shop-123',
  ),
  location: identifier(
    'The location',
    LOCATION_PATTERN,
    'is global or a region such as europe-west1',
  ).default('global'),
});
export type DialogflowAgent = z.infer<typeof DialogflowAgentSchema>;
export type DialogflowAgentInput = z.input<typeof DialogflowAgentSchema>;

const languageCode = (label: string) =>
  z.string().trim().regex(LANGUAGE_PATTERN, `${label} is a language code such as en or pt-BR`);

/**
 * A Dialogflow CX integration. `default_agent` names the agent that answers; `fallback_agent` (optional) answers
 * when the default one fails. The language sent is the visitor's when `languages` is empty or lists it, else
 * `language_code`; with `agent_per_language` the agent named `{default_agent}-{language}` answers visitors of
 * that language when there is one. `endpoint` overrides Google's hosts (regional, private or test servers).
 */
export const DialogflowCxSettingsSchema = z
  .strictObject({
    service_account_key: z
      .string('The service account key is required')
      .max(DIALOGFLOW_KEY_MAX, 'The key file is larger than a service-account key')
      .superRefine((value, context) => {
        if (value.startsWith(SECRET_MASK_PREFIX)) return;
        const parsed = parseServiceAccountKey(value);
        if ('error' in parsed) context.addIssue({ code: 'custom', message: parsed.error });
      }),
    agents: z
      .array(DialogflowAgentSchema)
      .min(1, 'Add at least one agent')
      .max(DIALOGFLOW_AGENTS_MAX, `At most ${DIALOGFLOW_AGENTS_MAX} agents`)
      .refine(
        (agents) => new Set(agents.map((agent) => agent.agentName)).size === agents.length,
        'Two agents have the same name',
      ),
    default_agent: z.string().trim().default(''),
    fallback_agent: z.string().trim().default(''),
    environment: z
      .string()
      .trim()
      .refine(
        (value) => value === '' || RESOURCE_ID_PATTERN.test(value),
        'The environment is an environment id (empty for the draft)',
      )
      .default(''),
    language_code: languageCode('The default language').default('en'),
    languages: z.array(languageCode('A language')).max(100, 'At most 100 languages').default([]),
    agent_per_language: z.boolean('agent_per_language is true or false').default(false),
    endpoint: z
      .string()
      .trim()
      .max(2000, 'The endpoint must be at most 2000 characters')
      .refine(
        (value) => value === '' || httpAddress(value) !== null,
        'The endpoint is an http(s) address without a user name or password',
      )
      .default(''),
  })
  .transform((settings, context) => {
    const names = settings.agents.map((agent) => agent.agentName);
    const defaultAgent = settings.default_agent || (names[0] ?? '');
    if (!names.includes(defaultAgent)) {
      context.addIssue({
        code: 'custom',
        path: ['default_agent'],
        message: 'The default agent is one of the agents',
      });
    }
    if (settings.fallback_agent !== '' && !names.includes(settings.fallback_agent)) {
      context.addIssue({
        code: 'custom',
        path: ['fallback_agent'],
        message: 'The fallback agent is one of the agents (or none)',
      });
    }
    return { ...settings, default_agent: defaultAgent };
  });
export type DialogflowCxSettings = z.output<typeof DialogflowCxSettingsSchema>;
export type DialogflowCxSettingsInput = z.input<typeof DialogflowCxSettingsSchema>;

/** Dialogflow CX settings as the console reads them: the key only masked, with the account it belongs to. */
export const DialogflowCxSettingsViewSchema = z.object({
  service_account_key: z.string(),
  client_email: z.string(),
  agents: z.array(
    z.object({
      agentName: z.string(),
      agentId: z.string(),
      agentImage: z.string(),
      projectId: z.string(),
      location: z.string(),
    }),
  ),
  default_agent: z.string(),
  fallback_agent: z.string(),
  environment: z.string(),
  language_code: z.string(),
  languages: z.array(z.string()),
  agent_per_language: z.boolean(),
  endpoint: z.string(),
});
export type DialogflowCxSettingsView = z.infer<typeof DialogflowCxSettingsViewSchema>;

/**
 * The API base of an agent: the override, else Google's host of the agent's location (`{location}-dialogflow.`
 * for a region, none for global).
 */
export function dialogflowApiBaseOf(agent: Pick<DialogflowAgent, 'location'>, endpoint: string): string {
  if (endpoint !== '') return endpoint.replace(/\/+$/u, '');
  return agent.location === 'global'
    ? 'https://dialogflow.googleapis.com'
    : `https://${agent.location}-dialogflow.googleapis.com`;
}

/** Where a stored key's access tokens are sent: the override, or Google's own hosts (bound by nothing). */
export const dialogflowKeyEndpointOf = (endpoint: string) => endpoint || 'https://dialogflow.googleapis.com';

/** The language sent to the agent: the visitor's when the agent takes it, else the integration's default. */
export function dialogflowLanguageOf(
  settings: Pick<DialogflowCxSettings, 'languages' | 'language_code'>,
  visitor: string | undefined,
): string {
  if (visitor === undefined || visitor === '') return settings.language_code;
  if (settings.languages.length === 0) return visitor;
  const primary = visitor.toLowerCase().split('-')[0];
  const match =
    settings.languages.find((code) => code.toLowerCase() === visitor.toLowerCase()) ??
    settings.languages.find((code) => code.toLowerCase().split('-')[0] === primary);
  return match ?? settings.language_code;
}

/** The agent that answers a visitor in `language`: `{default}-{primary language}` when asked for and listed. */
export function dialogflowAgentFor(
  settings: Pick<DialogflowCxSettings, 'agents' | 'default_agent' | 'agent_per_language'>,
  language: string,
): DialogflowAgent | undefined {
  const byName = (name: string) => settings.agents.find((agent) => agent.agentName === name);
  if (settings.agent_per_language) {
    const primary = language.toLowerCase().split('-')[0] ?? '';
    const own = byName(`${settings.default_agent}-${primary}`);
    if (own) return own;
  }
  return byName(settings.default_agent);
}
