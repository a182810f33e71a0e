import { z } from 'zod';
import { AWS_REGION_PATTERN } from './contact-centre';
import { MODEL_MAX_TOKENS_DEFAULT, MODEL_TEMPERATURE_DEFAULT, SECRET_MASK_PREFIX } from './widget-config';

/**
 * Settings of the AWS chatbot engines: Amazon Lex V2 (RecognizeText on the Lex runtime) and Amazon Bedrock
 * (Converse / ConverseStream on the Bedrock runtime). Secrets follow the model keys' rule: a new value, '' for
 * none, or the masked value as it was read (which keeps the stored one, only while the endpoint stays the same).
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/u;

/** The region AWS engines use unless told otherwise (the seed's aws block). */
export const AWS_ENGINE_REGION_DEFAULT = 'us-west-2';
/** The Lex intent that means "hand the visitor to a person" unless the integration names another. */
export const LEX_HANDOVER_INTENT_DEFAULT = 'TalkToAgent';

const region = () =>
  z
    .string()
    .trim()
    .regex(AWS_REGION_PATTERN, 'An AWS region looks like us-west-2')
    .default(AWS_ENGINE_REGION_DEFAULT);

/** An optional endpoint override (regional endpoints, private links, tests): http(s), no user name or fragment. */
const endpointOverride = (what: string) =>
  z
    .string()
    .trim()
    .max(2000, `${what} must be at most 2000 characters`)
    .refine((value) => {
      if (value === '') return true;
      if (CONTROL.test(value) || !URL.canParse(value)) return false;
      const url = new URL(value);
      return ['https:', 'http:'].includes(url.protocol) && !url.username && !url.password && !url.hash;
    }, `${what} is an http(s) address without a user name or password`)
    .default('');

const secretValue = (what: string) =>
  z
    .string()
    .max(4096, `${what} must be at most 4096 characters`)
    .regex(/^[\x21-\x7e]*$/u, `${what} may contain only printable ASCII characters without spaces`)
    .default('');

const accessKeyId = () =>
  z
    .string()
    .trim()
    .regex(
      /^(?:[A-Z0-9]{16,128})?$/u,
      'The access key id is 16 to 128 upper-case letters and digits (it starts with AKIA or ASIA)',
    )
    .default('');

/**
 * Amazon Lex V2: RecognizeText on `runtime-v2-lex.{region}.amazonaws.com` (or `endpoint`), one Lex session per
 * conversation. The intent named `handover_intent` hands the visitor to a person ('' for none).
 */
export const LexSettingsSchema = z.strictObject({
  region: region(),
  bot_id: z
    .string()
    .trim()
    .regex(/^[0-9a-zA-Z]{10}$/u, 'The bot id is the 10 letters and digits Lex shows for the bot'),
  bot_alias_id: z
    .string()
    .trim()
    .regex(
      /^(?:[0-9a-zA-Z]{10}|TSTALIASID)$/u,
      'The alias id is the 10 letters and digits of the alias (TSTALIASID for the draft)',
    ),
  locale_id: z
    .string()
    .trim()
    .regex(/^[a-z]{2}_[A-Z]{2}$/u, 'The locale looks like en_US')
    .default('en_US'),
  access_key_id: accessKeyId().refine((value) => value !== '', 'Enter the access key id'),
  secret_access_key: secretValue('The secret access key').refine(
    (value) => value !== '',
    'Enter the secret access key',
  ),
  handover_intent: z
    .string()
    .trim()
    .max(100, 'The intent name is at most 100 characters')
    .regex(/^(?:[0-9a-zA-Z][_-]?)*$/u, 'An intent name has letters, digits, _ and - only')
    .default(LEX_HANDOVER_INTENT_DEFAULT),
  endpoint: endpointOverride('The Lex runtime endpoint'),
});
export type LexSettings = z.infer<typeof LexSettingsSchema>;
export type LexSettingsInput = z.input<typeof LexSettingsSchema>;

export const BEDROCK_AUTH_MODES = ['sigv4', 'api_key'] as const;
export type BedrockAuthMode = (typeof BEDROCK_AUTH_MODES)[number];

/**
 * Amazon Bedrock: Converse and ConverseStream on `bedrock-runtime.{region}.amazonaws.com` (or `endpoint`), signed
 * with the access key (`auth: sigv4`) or sent with a Bedrock API key as a bearer token (`auth: api_key`).
 */
export const BedrockSettingsSchema = z
  .strictObject({
    auth: z.enum(BEDROCK_AUTH_MODES, 'The authentication is sigv4 (access keys) or api_key').default('sigv4'),
    region: region(),
    model: z
      .string()
      .trim()
      .min(1, 'Enter the model id')
      .max(2048, 'The model id is at most 2048 characters')
      .regex(
        /^[A-Za-z0-9._:/-]+$/u,
        'The model id looks like anthropic.claude-3-haiku-20240307-v1:0 (or an inference profile ARN)',
      ),
    access_key_id: accessKeyId(),
    secret_access_key: secretValue('The secret access key'),
    api_key: secretValue('The Bedrock API key'),
    max_tokens: z
      .number('max_tokens must be a number')
      .int('max_tokens must be a whole number')
      .min(1, 'max_tokens is at least 1')
      .max(32_768, 'max_tokens is at most 32768')
      .default(MODEL_MAX_TOKENS_DEFAULT),
    temperature: z
      .number('temperature must be a number')
      .min(0, 'temperature is at least 0')
      .max(1, 'temperature is at most 1 on Bedrock')
      .default(MODEL_TEMPERATURE_DEFAULT),
    endpoint: endpointOverride('The Bedrock runtime endpoint'),
  })
  .superRefine((settings, context) => {
    if (settings.auth === 'sigv4') {
      if (settings.access_key_id === '') {
        context.addIssue({ code: 'custom', path: ['access_key_id'], message: 'Enter the access key id' });
      }
      if (settings.secret_access_key === '') {
        context.addIssue({
          code: 'custom',
          path: ['secret_access_key'],
          message: 'Enter the secret access key',
        });
      }
    } else if (settings.api_key === '') {
      context.addIssue({ code: 'custom', path: ['api_key'], message: 'Enter the Bedrock API key' });
    }
  });
export type BedrockSettings = z.infer<typeof BedrockSettingsSchema>;
export type BedrockSettingsInput = z.input<typeof BedrockSettingsSchema>;

/** The Lex V2 runtime address of settings: the override, or the region's. */
export const lexEndpointOf = (settings: Pick<LexSettings, 'region' | 'endpoint'>): string =>
  settings.endpoint || `https://runtime-v2-lex.${settings.region}.amazonaws.com`;

/** The Bedrock runtime address of settings: the override, or the region's. */
export const bedrockEndpointOf = (settings: Pick<BedrockSettings, 'region' | 'endpoint'>): string =>
  settings.endpoint || `https://bedrock-runtime.${settings.region}.amazonaws.com`;

/** Lex settings as the console reads them: the secret only masked ('' when none is stored). */
export const LexSettingsViewSchema = z.object({
  region: z.string(),
  bot_id: z.string(),
  bot_alias_id: z.string(),
  locale_id: z.string(),
  access_key_id: z.string(),
  secret_access_key: z.string(),
  handover_intent: z.string(),
  endpoint: z.string(),
});

/** Bedrock settings as the console reads them: the secret access key and the API key only masked. */
export const BedrockSettingsViewSchema = z.object({
  auth: z.enum(BEDROCK_AUTH_MODES),
  region: z.string(),
  model: z.string(),
  access_key_id: z.string(),
  secret_access_key: z.string(),
  api_key: z.string(),
  max_tokens: z.number().int(),
  temperature: z.number(),
  endpoint: z.string(),
});

/** Whether a secret is the masked form the console read (sent back, it keeps the stored one). */
export const isMaskedAwsSecret = (value: string) => value.startsWith(SECRET_MASK_PREFIX);
