import { z } from 'zod';
import { safeString } from './text';

/**
 * Settings of the contact-centre integrations a bot hands conversations over to. Secrets follow the model keys'
 * rule: a new value, '' for none, or the masked value as it was read (which keeps the stored one).
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/u;

/** The AWS regions' shape (us-west-2, eu-central-1, ap-southeast-2...). */
export const AWS_REGION_PATTERN = /^[a-z]{2}(?:-[a-z]+)+-\d$/u;

function addressOf(value: string, schemes: readonly string[]): URL | null {
  if (CONTROL.test(value) || !URL.canParse(value)) return null;
  const url = new URL(value);
  if (!schemes.includes(url.protocol) || url.username || url.password || url.hash) return null;
  return url;
}

/** An optional endpoint override (tests and private links); https or http, no user name, password or fragment. */
const endpointOverride = (what: string) =>
  z
    .string()
    .trim()
    .max(2000, `${what} must be at most 2000 characters`)
    .refine(
      (value) => value === '' || addressOf(value, ['https:', 'http:']) !== null,
      `${what} is an http(s) address without a user name or password`,
    )
    .default('');

/** A kept or new secret: printable ASCII without spaces, or '' for none. */
const secretValue = (what: string) =>
  z
    .string()
    .max(4096, `${what} must be at most 4096 characters`)
    .regex(/^[\x21-\x7e]*$/u, `${what} may contain only printable ASCII characters without spaces`)
    .default('');

/**
 * Genesys Cloud Web Messaging (the guest API): the server holds the WebSocket
 * `{server_url}?deploymentId={deployment_id}` for each handed-over conversation, presenting `origin` (one of the
 * deployment's allowed domains). The history API is on the `api.` host of the same region.
 */
export const GenesysSettingsSchema = z.strictObject({
  server_url: z
    .string()
    .trim()
    .max(2000, 'The server URL must be at most 2000 characters')
    .refine(
      (value) => addressOf(value, ['wss:', 'ws:']) !== null,
      'The server URL is the web messaging socket, for example wss://webmessaging.mypurecloud.com/v1',
    ),
  deployment_id: safeString()
    .trim()
    .regex(/^[0-9a-f-]{36}$/iu, 'The deployment id is the Messenger deployment id (a UUID)'),
  origin: z
    .string()
    .trim()
    .max(500, 'The origin must be at most 500 characters')
    .refine((value) => {
      const url = addressOf(value, ['https:', 'http:']);
      return url !== null && url.origin === value.replace(/\/$/u, '');
    }, 'The origin is a site address such as https://www.example.com, one of the deployment allowed domains'),
});
export type GenesysSettings = z.infer<typeof GenesysSettingsSchema>;

/**
 * The history API base of a web messaging socket address: the same region's `api.` host over https (http for a
 * plain ws address), or the socket's own host when it is not a `webmessaging.` host.
 */
export function genesysApiBaseOf(serverUrl: string): string {
  const url = new URL(serverUrl);
  const scheme = url.protocol === 'wss:' ? 'https:' : 'http:';
  const host = url.host.startsWith('webmessaging.')
    ? `api.${url.host.slice('webmessaging.'.length)}`
    : url.host;
  return `${scheme}//${host}`;
}

/** The content types a Connect chat may carry (SupportedMessagingContentTypes); text/plain is always among them. */
export const CONNECT_CONTENT_TYPES = ['text/plain', 'text/markdown'] as const;

/**
 * Amazon Connect chat: StartChatContact on the region's Connect API (SigV4 with the access key), then the
 * Participant Service. `connect_endpoint` and `participant_endpoint` override the regional addresses.
 */
export const ConnectSettingsSchema = z.strictObject({
  region: z.string().trim().regex(AWS_REGION_PATTERN, 'An AWS region looks like us-west-2'),
  instance_id: z
    .string()
    .trim()
    .regex(/^[0-9a-f-]{36}$/iu, 'The instance id is a UUID'),
  contact_flow_id: z
    .string()
    .trim()
    .regex(/^[0-9a-f-]{36}$/iu, 'The contact flow id is a UUID'),
  access_key_id: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{16,128}$/u, 'The access key id is 16 to 128 upper-case letters and digits'),
  secret_access_key: secretValue('The secret access key'),
  content_types: z
    .array(z.enum(CONNECT_CONTENT_TYPES, `A content type is one of: ${CONNECT_CONTENT_TYPES.join(', ')}`))
    .max(CONNECT_CONTENT_TYPES.length)
    .default(['text/plain'])
    .transform((types) => [...new Set<(typeof CONNECT_CONTENT_TYPES)[number]>(['text/plain', ...types])]),
  /** The name the agent sees for the visitor. */
  display_name: safeString()
    .trim()
    .min(1)
    .max(256, 'The display name is at most 256 characters')
    .default('Visitor'),
  connect_endpoint: endpointOverride('The Connect endpoint'),
  participant_endpoint: endpointOverride('The participant endpoint'),
});
export type ConnectSettings = z.infer<typeof ConnectSettingsSchema>;
export type ConnectSettingsInput = z.input<typeof ConnectSettingsSchema>;

/** The regional addresses of a Connect integration, unless overridden. */
export function connectEndpointsOf(
  settings: Pick<ConnectSettings, 'region' | 'connect_endpoint' | 'participant_endpoint'>,
): { connect: string; participant: string } {
  return {
    connect: settings.connect_endpoint || `https://connect.${settings.region}.amazonaws.com`,
    participant:
      settings.participant_endpoint || `https://participant.connect.${settings.region}.amazonaws.com`,
  };
}

/** The contact-centre providers an integration may configure (the built-in inbox needs none). */
export const CONTACT_CENTRE_PROVIDERS = ['genesys', 'connect'] as const;
export type ContactCentreProvider = (typeof CONTACT_CENTRE_PROVIDERS)[number];
