import { z } from 'zod';
import {
  DEFAULT_MASK_PATTERNS,
  isGeneratedDisclaimer,
  MASK_CHARACTER_DEFAULT,
  MASK_PATTERNS_MAX,
  MaskPatternSchema,
  maskingDisclaimer,
} from './masks';
import { LANGUAGE_CODE, LANGUAGE_CODE_MAX } from './language-code';
import { isSameSecretEndpoint } from './secret-endpoint';
import { safeString } from './text';

export const WIDGET_DESCRIPTION_MAX = 165;
export const WIDGET_NAME_MAX = 80;
export const WIDGET_TEXT_MAX = 1000;
export const WIDGET_LABEL_MAX = 120;
const WIDGET_URL_MAX = 2048;
const WIDGET_SECRET_MAX = 4096;
export const WIDGET_MENU_MAX = 20;
export const WIDGET_SUGGESTIONS_MAX = 10;
export const WIDGET_ALLOWED_ORIGINS_MAX = 50;
const WIDGET_WINDOW_WIDTH_DEFAULT = 450;
const WIDGET_WINDOW_HEIGHT_DEFAULT = 750;
export const MODEL_MAX_TOKENS_DEFAULT = 1024;
export const MODEL_TEMPERATURE_DEFAULT = 0.7;

export const BOT_ENGINES = ['builtin', 'openai', 'dialogflowcx', 'lex', 'bedrock'] as const;
export type BotEngine = (typeof BOT_ENGINES)[number];
/**
 * Who translates for a bot. `dialogflowcx`: the Dialogflow CX agent answers in the visitor's language when it
 * supports it, everything else is translated by the bot's `translateFallback`.
 */
export const TRANSLATE_ENGINES = [
  'builtin',
  'openai',
  'libretranslate',
  'google',
  'aws',
  'dialogflowcx',
] as const;
export type TranslateEngine = (typeof TRANSLATE_ENGINES)[number];
/** The translators that translate text themselves (every translate engine but `dialogflowcx`). */
export const TEXT_TRANSLATE_ENGINES = ['builtin', 'openai', 'libretranslate', 'google', 'aws'] as const;
export type TextTranslateEngine = (typeof TEXT_TRANSLATE_ENGINES)[number];
/** Where a conversation handed to a person goes: the built-in agent inbox, Genesys Cloud or Amazon Connect. */
export const LIVE_AGENT_PROVIDERS = ['inbox', 'genesys', 'connect'] as const;
/** The providers that need a contact-centre integration (its settings) before a conversation can go to them. */
const HANDOVER_PROVIDERS_WITH_INTEGRATION: ReadonlySet<string> = new Set(['genesys', 'connect']);

/**
 * Whether a bot hands conversations to a person it can reach: live agents on, either the built-in inbox or a
 * contact centre whose integration the bot names (a bot saved without one offers no person), and (when the bot
 * follows a schedule) `inHours`, whether the schedule is open now. Out of hours the widget offers no person.
 */
export const offersHandover = (
  config: {
    engines: { enableliveagent: boolean; liveagent: string; liveagent_integration_id?: string | null };
  },
  inHours = true,
) =>
  inHours &&
  config.engines.enableliveagent &&
  (config.engines.liveagent === 'inbox' ||
    (HANDOVER_PROVIDERS_WITH_INTEGRATION.has(config.engines.liveagent) &&
      typeof config.engines.liveagent_integration_id === 'string'));

/** What the widget says out of hours instead of offering a person, unless the bot's configuration says otherwise. */
export const OFFLINE_TEXT_DEFAULT =
  'Our agents are available during business hours. I am happy to keep helping you here in the meantime.';
const VOICES = ['native', 'server'] as const;

/** Named colours accepted besides #rgb and #rrggbb; anything else is refused so no CSS can be smuggled in. */
const NAMED_COLOURS = [
  'transparent',
  'black',
  'white',
  'gray',
  'grey',
  'silver',
  'red',
  'maroon',
  'orange',
  'yellow',
  'olive',
  'lime',
  'green',
  'teal',
  'aqua',
  'cyan',
  'blue',
  'navy',
  'fuchsia',
  'magenta',
  'purple',
] as const;

/** The prefix of a secret shown masked to the console; a value sent back with it means "keep the stored one". */
export const SECRET_MASK_PREFIX = '****';

const text = (max: number, label: string) => safeString().max(max, `${label} has at most ${max} characters.`);

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const ColourSchema = safeString().refine(
  (value) => HEX_COLOUR.test(value) || (NAMED_COLOURS as readonly string[]).includes(value),
  'A colour is #rgb, #rrggbb or one of the named colours: ' + NAMED_COLOURS.join(', ') + '.',
);

const colour = (fallback: string) => ColourSchema.default(fallback);

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

/** An absolute http or https URL, or '' for none. */
export const HttpUrlSchema = safeString()
  .max(WIDGET_URL_MAX, `A URL has at most ${WIDGET_URL_MAX} characters.`)
  .refine((value) => value === '' || isHttpUrl(value), 'A URL must start with http:// or https://.');

const url = () => HttpUrlSchema.default('');

/** An origin exactly: scheme, host and optional port, with no path, query or trailing slash. */
export const OriginSchema = safeString().refine(
  (value) => isHttpUrl(value) && new URL(value).origin === value,
  'An allowed origin is a scheme, host and optional port only, for example https://www.example.com.',
);

const FONT_FAMILY = /^[A-Za-z0-9 ,'"-]{1,100}$/;
const fontFamily = (fallback: string) =>
  safeString()
    .regex(FONT_FAMILY, 'A font family may use letters, digits, spaces, commas, quotes and hyphens only.')
    .default(fallback);

const FONT_SIZE = /^(\d{1,2})px$/;
const fontSize = (fallback: string) =>
  safeString()
    .refine((value) => {
      const match = FONT_SIZE.exec(value);
      return match !== null && Number(match[1]) >= 8 && Number(match[1]) <= 48;
    }, 'A font size is a whole number of pixels from 8px to 48px, for example 15px.')
    .default(fallback);

/** A language code field: the rule of isLanguageCode, with a message for each way a value breaks it. */
export const languageCodeSchema = () =>
  safeString()
    .max(LANGUAGE_CODE_MAX, `A language code has at most ${String(LANGUAGE_CODE_MAX)} characters.`)
    .regex(LANGUAGE_CODE, 'A language is a code such as en, fr or pt-BR.');
const language = (fallback: string) => languageCodeSchema().default(fallback);

const boundedNumber = (min: number, max: number, label: string, fallback: number) =>
  z
    .number(`${label} must be a number.`)
    .min(min, `${label} is at least ${min}.`)
    .max(max, `${label} is at most ${max}.`)
    .default(fallback);

const boundedInt = (min: number, max: number, label: string, fallback: number) =>
  z
    .number(`${label} must be a number.`)
    .int(`${label} must be a whole number.`)
    .min(min, `${label} is at least ${min}.`)
    .max(max, `${label} is at most ${max}.`)
    .default(fallback);

/** A flag; the strings 'true' and 'false' of older configurations are read as booleans. */
const flag = (fallback: boolean) =>
  z
    .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')], {
      error: 'A flag is true or false.',
    })
    .default(fallback);

const optionalId = (label: string) => z.uuid(`Unknown ${label} id`).nullable().default(null);

/** Registry of the schema fields that hold provider secrets: stored encrypted, shown masked, never served. */
export const secretFields = z.registry<{ secret: true }>();

const secret = (label: string) => {
  const schema = text(WIDGET_SECRET_MAX, label).default('');
  secretFields.add(schema, { secret: true });
  return schema;
};

/**
 * Whether a value is a Google service-account key file (JSON with client_email, private_key and project_id); ''
 * (none) and a masked stored key pass too. The console checks a pasted key with it before saving.
 */
export function isServiceAccountKey(value: string): boolean {
  if (value === '' || value.startsWith(SECRET_MASK_PREFIX)) return true;
  try {
    const key = JSON.parse(value) as Record<string, unknown>;
    return (
      typeof key.client_email === 'string' &&
      typeof key.project_id === 'string' &&
      typeof key.private_key === 'string' &&
      key.private_key.includes('PRIVATE KEY')
    );
  } catch {
    return false;
  }
}

const WidgetIdentitySchema = z.object({
  name: text(WIDGET_NAME_MAX, 'The name').trim().min(1, 'The name is required.').default('Omnibot'),
  description: text(WIDGET_DESCRIPTION_MAX, 'The description').default(
    'This is a default bot. Change me.limit only to 165 characters',
  ),
  website: url(),
  widgetname: text(WIDGET_NAME_MAX, 'The widget name').default('Omnibot'),
  displayName: text(WIDGET_NAME_MAX, 'The display name').default('Virtual Agent'),
  botName: text(WIDGET_NAME_MAX, 'The bot name').default('Omnibot'),
  botUserName: text(WIDGET_NAME_MAX, "The visitor's display name").default('Me'),
  avatarUri: url(),
});

const WidgetLanguageSchema = z.object({
  default_language: language('en'),
  fallback_language: language('en'),
  autoTranslate: flag(false),
  autoAgentTranslate: flag(false),
});

const WidgetMenuItemSchema = z.object({
  label: text(WIDGET_LABEL_MAX, 'A menu label').trim().min(1, 'A menu item needs a label.'),
  text: text(WIDGET_TEXT_MAX, 'A menu text').trim().min(1, 'A menu item needs the text it sends.'),
});

const DEFAULT_WELCOME_TEXT = "Hi! I'm your smart virtual assistant. How can I help you today?";
const DEFAULT_START_SUGGESTIONS = ['What can you do?', 'How can I contact you?'] as const;

const WidgetWelcomeSchema = z.object({
  welcomeText: text(WIDGET_TEXT_MAX, 'The welcome text').default(DEFAULT_WELCOME_TEXT),
  welcomeText_enabled: flag(false),
  welcomeMenu: z
    .array(WidgetMenuItemSchema)
    .max(WIDGET_MENU_MAX, `The welcome menu has at most ${WIDGET_MENU_MAX} items.`)
    .default([]),
  popupMenu: z
    .array(WidgetMenuItemSchema)
    .max(WIDGET_MENU_MAX, `The popup menu has at most ${WIDGET_MENU_MAX} items.`)
    .default([]),
  enablePopupMenu: flag(false),
  start_suggestions: z
    .array(text(WIDGET_LABEL_MAX, 'A suggestion').trim().min(1, 'A suggestion may not be empty.'))
    .max(WIDGET_SUGGESTIONS_MAX, `At most ${WIDGET_SUGGESTIONS_MAX} suggestions.`)
    .default([...DEFAULT_START_SUGGESTIONS]),
});

const WidgetBehaviourSchema = z.object({
  consoleLog: flag(true),
  sessionStorage: flag(true),
  botExternal: flag(true),
  enableUserFeedback: flag(true),
  speaker_enabled: flag(false),
  microphone_enabled: flag(false),
  muted: flag(true),
  useAWSTTS: flag(false),
  /** The server voice is Google Text-to-Speech (google.ttsVoice) unless useAWSTTS chooses Amazon Polly. */
  useGoogleTTS: flag(false),
  msgRecvTone_enabled: flag(false),
  msgRecvTone: url(),
  voice: z.enum(VOICES, `The voice is one of: ${VOICES.join(', ')}.`).default('native'),
});

const WidgetEnginesSchema = z.object({
  bot_or_agent: z.enum(['bot', 'agent'], 'bot_or_agent is bot or agent.').default('bot'),
  botEngine: z.enum(BOT_ENGINES, `The bot engine is one of: ${BOT_ENGINES.join(', ')}.`).default('builtin'),
  translateEngine: z
    .enum(TRANSLATE_ENGINES, `The translate engine is one of: ${TRANSLATE_ENGINES.join(', ')}.`)
    .default('builtin'),
  /** The translator of text the `dialogflowcx` translate engine leaves to another one. */
  translateFallback: z
    .enum(TEXT_TRANSLATE_ENGINES, `The fallback translator is one of: ${TEXT_TRANSLATE_ENGINES.join(', ')}.`)
    .default('builtin'),
  liveagent: z
    .enum(LIVE_AGENT_PROVIDERS, `The live-agent provider is one of: ${LIVE_AGENT_PROVIDERS.join(', ')}.`)
    .default('genesys'),
  enableliveagent: flag(false),
  /** After this many fallback answers in a row the bot hands the conversation to a person; 0 never. */
  handoverAfterFallbacks: z
    .number('handoverAfterFallbacks is a number.')
    .int('handoverAfterFallbacks is a whole number.')
    .min(0, 'handoverAfterFallbacks is at least 0.')
    .max(10, 'handoverAfterFallbacks is at most 10.')
    .default(0),
  /** The RAG the builtin engine answers from; checked against the caller's tenant by the server. */
  rag_id: optionalId('RAG'),
  /** The chat model (from /model) the openai engine uses; checked against the caller's tenant by the server. */
  model_id: optionalId('model'),
  /** The speech model (kind speech, from /model) that reads answers aloud when the voice is 'server'. */
  speech_model_id: optionalId('speech model'),
  prompt_id: optionalId('prompt'),
  /** A chatbot-engine integration whose settings the bot answers with; checked against the caller's tenant. */
  integration_id: optionalId('integration'),
  /**
   * The contact-centre integration (kind ccaas) of the live-agent provider when it is genesys or connect; checked
   * against the caller's tenant and the provider by the server.
   */
  liveagent_integration_id: optionalId('contact-centre integration'),
  /** The business hours hand-over follows (from /schedule); none: a person is offered at any time. */
  schedule_id: optionalId('schedule'),
  /** What the widget shows instead of "Talk to an agent" while the schedule is closed. */
  offlineText: text(WIDGET_TEXT_MAX, 'The offline text').default(OFFLINE_TEXT_DEFAULT),
  fallbackText: text(WIDGET_TEXT_MAX, 'The fallback text').default(
    "Sorry, I don't have an answer to that. Could you rephrase your question?",
  ),
});

const WidgetBubbleColoursSchema = z.object({
  backgroundColor: colour('#f1f3f5'),
  backgroundColorDark: colour('#2c2e33'),
  textColor: colour('#1a1b1e'),
  textColorDark: colour('#f1f3f5'),
});

const WidgetAppearanceSchema = z.object({
  colorScheme: z.enum(['auto', 'light', 'dark'], 'The colour scheme is auto, light or dark.').default('auto'),
  backgroundColor: colour('#ffffff'),
  backgroundColorDark: colour('#1a1b1e'),
  userBubble: WidgetBubbleColoursSchema.prefault({
    backgroundColor: '#1971c2',
    backgroundColorDark: '#1971c2',
    textColor: '#ffffff',
    textColorDark: '#ffffff',
  }),
  botBubble: WidgetBubbleColoursSchema.prefault({}),
  bubble: z.object({ fontFamily: fontFamily('Helvetica'), fontSize: fontSize('15px') }).prefault({}),
  button: z
    .object({
      backgroundColor: colour('#1971c2'),
      backgroundColorDark: colour('#1971c2'),
      textColor: colour('#ffffff'),
      textColorDark: colour('#ffffff'),
      linkColor: colour('#1971c2'),
      linkColorDark: colour('#74c0fc'),
      fontFamily: fontFamily('Helvetica'),
      fontSize: fontSize('15px'),
    })
    .prefault({}),
  video: flag(false),
  attachment: flag(false),
  screenshare: flag(false),
});

/** The default disclaimer names what the default patterns mask (see maskingDisclaimer). */
const DEFAULT_DISCLAIMER = maskingDisclaimer(DEFAULT_MASK_PATTERNS);

const WidgetFeedbackSchema = z.object({
  enableComment: flag(true),
  button1Text: text(WIDGET_LABEL_MAX, 'A feedback button text').default('Helpful'),
  button2Text: text(WIDGET_LABEL_MAX, 'A feedback button text').default('Not sure'),
  button3Text: text(WIDGET_LABEL_MAX, 'A feedback button text').default('Not helpful'),
  disclaimer: text(WIDGET_TEXT_MAX, 'The disclaimer').default(DEFAULT_DISCLAIMER),
});

const WidgetTitlesSchema = z.object({
  muteTitle: text(WIDGET_LABEL_MAX, 'A title').default('Mute'),
  unMuteTitle: text(WIDGET_LABEL_MAX, 'A title').default('Unmute'),
  inputTitle: text(WIDGET_LABEL_MAX, 'A title').default('Message'),
  sendTitle: text(WIDGET_LABEL_MAX, 'A title').default('Send'),
  microphoneTitle: text(WIDGET_LABEL_MAX, 'A title').default('Voice Input'),
  recognitionUnavailable: text(WIDGET_LABEL_MAX, 'A title').default('Speech recognition is not available'),
});

const WidgetMaskingSchema = z.object({
  enableMasking: flag(false),
  maskCharacter: safeString()
    .refine((value) => [...value].length === 1, 'The mask character is exactly one character.')
    .default(MASK_CHARACTER_DEFAULT),
  patterns: z
    .array(MaskPatternSchema)
    .max(MASK_PATTERNS_MAX, `At most ${MASK_PATTERNS_MAX} mask patterns.`)
    .default(DEFAULT_MASK_PATTERNS.map((pattern) => ({ ...pattern }))),
});

const WidgetLauncherSchema = z.object({
  enableLauncher: flag(true),
  position: z.enum(['right', 'left'], 'The launcher position is right or left.').default('right'),
  positionPct: boundedNumber(0, 50, 'The launcher offset (percent)', 2),
  borderRadius: boundedInt(0, 50, 'The launcher border radius', 50),
  launcherIcon: z
    .object({
      url: url(),
      urlDark: url(),
      width: boundedInt(24, 128, 'The launcher icon width (px)', 50),
      height: boundedInt(24, 128, 'The launcher icon height (px)', 50),
    })
    .prefault({}),
  logo: url(),
  logoDark: url(),
  background: colour('#1971c2'),
  headerFontFamily: fontFamily('Helvetica'),
  headerColor: colour('#ffffff'),
  infoText: text(WIDGET_TEXT_MAX, 'The launcher info text').default(
    "Hi! I'm your virtual assistant. Ask me anything.",
  ),
  openText: text(WIDGET_LABEL_MAX, 'The launcher open text').default('Close'),
  closeText: text(WIDGET_LABEL_MAX, 'The launcher close text').default('Virtual Assistant'),
});

const WidgetWindowSchema = z.object({
  width: boundedInt(280, 1200, 'The window width (px)', WIDGET_WINDOW_WIDTH_DEFAULT),
  height: boundedInt(400, 1600, 'The window height (px)', WIDGET_WINDOW_HEIGHT_DEFAULT),
});

const WidgetInstallSchema = z.object({
  allowedOrigins: z
    .array(OriginSchema)
    .max(WIDGET_ALLOWED_ORIGINS_MAX, `At most ${WIDGET_ALLOWED_ORIGINS_MAX} allowed origins.`)
    .refine((origins) => new Set(origins).size === origins.length, 'An allowed origin is listed twice.')
    .default([]),
});

const maxTokens = () => boundedInt(1, 32_768, 'max_tokens', MODEL_MAX_TOKENS_DEFAULT);
const temperature = () => boundedNumber(0, 2, 'temperature', MODEL_TEMPERATURE_DEFAULT);
const identifierText = (label: string) => text(WIDGET_LABEL_MAX * 2, label);
const identifier = (label: string) => identifierText(label).default('');

const WidgetDialogflowAgentSchema = z.object({
  agentName: text(WIDGET_LABEL_MAX, 'The agent name').trim().min(1, 'An agent needs a name.'),
  agentId: identifier('The agent id'),
  agentImage: url(),
  projectId: identifier('The project id'),
  location: identifierText('The location').default('global'),
  defaultCalltype: identifier('The default call type'),
  appendLanguageToCalltype: flag(false),
});

const WidgetGoogleSchema = z.object({
  url: url(),
  feedback_url: url(),
  translate_url: url(),
  tts_url: url(),
  dialogflowcx: z.array(WidgetDialogflowAgentSchema).max(20, 'At most 20 Dialogflow CX agents.').default([]),
  default_agent: identifier('The default agent'),
  fallback_agent: identifier('The fallback agent'),
  serviceAccountKey: secret('The service account key'),
  /** A Google Cloud API key: Cloud Translation v2 and Text-to-Speech without a service account. */
  apiKey: secret('The Google API key'),
  /** The Text-to-Speech voice, e.g. en-US-Standard-C (its first two parts are the language). */
  ttsVoice: identifier('The Google voice'),
});

const WidgetAwsSchema = z.object({
  key: secret('The AWS access key'),
  secret: secret('The AWS secret key'),
  region: identifierText('The AWS region')
    .refine((value) => /^[a-z]{2}(?:-[a-z]+)+-\d$/.test(value), 'An AWS region looks like us-west-2.')
    .default('us-west-2'),
  /** Endpoint overrides (private links, tests); '' is the region's own endpoint. */
  translate_url: url(),
  polly_url: url(),
  translate: z
    .object({
      Formality: z.enum(['FORMAL', 'INFORMAL'], 'Formality is FORMAL or INFORMAL.').default('FORMAL'),
      Profanity: z.enum(['MASK'], 'Profanity is MASK.').default('MASK'),
    })
    .prefault({}),
  polly: z
    .object({ voiceId: identifier('The Polly voice'), engine: identifier('The Polly engine') })
    .prefault({}),
  lex: z
    .object({
      botId: identifier('The Lex bot id'),
      botAliasId: identifier('The Lex bot alias id'),
      localeId: identifierText('The Lex locale').default('en_US'),
    })
    .prefault({}),
  bedrock: z
    .object({ model: identifier('The Bedrock model'), max_tokens: maxTokens(), temperature: temperature() })
    .prefault({}),
  connect: z
    .object({
      instanceId: identifier('The Connect instance id'),
      contactFlowId: identifier('The Connect contact flow id'),
      contentTypes: z.array(text(WIDGET_LABEL_MAX, 'A content type')).max(10).default([]),
    })
    .prefault({}),
  chime: z
    .object({
      regions: z.array(identifier('A Chime region')).max(30).default([]),
      joinUrl: url(),
      videoMaxBandwidthKbps: boundedInt(100, 10_000, 'The video max bandwidth', 1400),
      backgroundBlurStrength: z
        .enum(['low', 'medium', 'high'], 'Blur strength is low, medium or high.')
        .default('high'),
      blurImageEnabled: flag(true),
    })
    .prefault({}),
});

const WidgetGenesysSchema = z.object({
  SERVER_URL: url(),
  DEPLOYMENT_ID: identifier('The deployment id'),
  clientId: identifier('The client id'),
  clientSecret: secret('The client secret'),
});

const WidgetOpenAiSchema = z.object({
  url: url(),
  model: identifier('The model'),
  max_tokens: maxTokens(),
  temperature: temperature(),
  apiKey: secret('The API key'),
});

/** A LibreTranslate server the translate engine `libretranslate` calls (its /detect and /translate). */
const WidgetLibreTranslateSchema = z.object({
  url: url(),
  apiKey: secret('The LibreTranslate API key'),
});

export const GEOLOCATION_URL_DEFAULT = 'https://get.geojs.io';

/**
 * Visitor geolocation: while `enabled`, the server asks the service at `url` (the geojs protocol,
 * /v1/ip/country/{ip}.json) for the country of a visitor's address once per conversation. `ip`, `country` and `geo`
 * are the seed's lookup addresses, kept as they were entered.
 */
const WidgetGeojsSchema = z.object({
  enabled: flag(false),
  url: HttpUrlSchema.refine((value) => value !== '', 'The geolocation service needs an address.').default(
    GEOLOCATION_URL_DEFAULT,
  ),
  ip: url(),
  country: url(),
  geo: url(),
});

/** The whole configuration of a bot and its widget; `WidgetConfigSchema.parse({})` is the default configuration. */
export const WidgetConfigSchema = z.object({
  identity: WidgetIdentitySchema.prefault({}),
  language: WidgetLanguageSchema.prefault({}),
  welcome: WidgetWelcomeSchema.prefault({}),
  behaviour: WidgetBehaviourSchema.prefault({}),
  engines: WidgetEnginesSchema.prefault({}),
  appearance: WidgetAppearanceSchema.prefault({}),
  feedback: WidgetFeedbackSchema.prefault({}),
  titles: WidgetTitlesSchema.prefault({}),
  masking: WidgetMaskingSchema.prefault({}),
  launcher: WidgetLauncherSchema.prefault({}),
  window: WidgetWindowSchema.prefault({}),
  install: WidgetInstallSchema.prefault({}),
  google: WidgetGoogleSchema.prefault({}),
  aws: WidgetAwsSchema.prefault({}),
  genesys: WidgetGenesysSchema.prefault({}),
  openai: WidgetOpenAiSchema.prefault({}),
  libretranslate: WidgetLibreTranslateSchema.prefault({}),
  geojs: WidgetGeojsSchema.prefault({}),
});
export type WidgetConfig = z.infer<typeof WidgetConfigSchema>;
export type WidgetConfigInput = z.input<typeof WidgetConfigSchema>;

/** Paths (dot-separated) of every field registered in `secretFields` inside `schema`. */
export function secretPathsOf(schema: z.ZodType, prefix = ''): string[] {
  if (secretFields.has(schema)) return [prefix];
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, child]) =>
      secretPathsOf(child, prefix === '' ? key : `${prefix}.${key}`),
    );
  }
  if (
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable
  ) {
    return secretPathsOf(schema.unwrap() as z.ZodType, prefix);
  }
  if (schema instanceof z.ZodArray) return secretPathsOf(schema.element as z.ZodType, `${prefix}[]`);
  if (schema instanceof z.ZodPipe) return secretPathsOf(schema.in as z.ZodType, prefix);
  return [];
}

/** Every provider secret of the configuration: these are encrypted at rest, masked for the console, never served. */
export const WIDGET_CONFIG_SECRET_PATHS = secretPathsOf(WidgetConfigSchema) as readonly string[];

type SecretHolder = Record<string, Record<string, unknown>>;

function secretAt(config: WidgetConfig, path: string): string {
  const [group, field] = path.split('.');
  const value = (config as unknown as SecretHolder)[group ?? '']?.[field ?? ''];
  return typeof value === 'string' ? value : '';
}

/** A copy of the configuration with each secret replaced by `map(value, path)` (e.g. encrypt or decrypt). */
export function mapWidgetConfigSecrets(
  config: WidgetConfig,
  map: (value: string, path: string) => string,
): WidgetConfig {
  const copy = structuredClone(config);
  for (const path of WIDGET_CONFIG_SECRET_PATHS) {
    const [group, field] = path.split('.');
    const holder = (copy as unknown as SecretHolder)[group ?? ''];
    if (holder !== undefined && field !== undefined) holder[field] = map(secretAt(config, path), path);
  }
  return copy;
}

/** How the console sees a secret: '' when none is set, else '****' and the last four characters of long secrets. */
export function maskSecret(value: string): string {
  if (value === '') return '';
  return value.length >= 16 ? `${SECRET_MASK_PREFIX}${value.slice(-4)}` : SECRET_MASK_PREFIX;
}

/** Whether a value is a masked secret as the console received it (sent back, it means "keep the stored one"). */
export function isMaskedSecret(value: string): boolean {
  return value.startsWith(SECRET_MASK_PREFIX);
}

/** The configuration for the console: every secret masked with maskSecret. */
export function maskedWidgetConfig(config: WidgetConfig): WidgetConfig {
  return mapWidgetConfigSecrets(config, maskSecret);
}

/**
 * Merges a configuration edited in the console with the stored one: a secret sent back masked keeps the stored
 * value, any other value (including '' to clear it) replaces it.
 */
export function mergeWidgetConfigSecrets(incoming: WidgetConfig, stored: WidgetConfig): WidgetConfig {
  return mapWidgetConfigSecrets(incoming, (value, path) =>
    isMaskedSecret(value) ? secretAt(stored, path) : value,
  );
}

/**
 * The address fields each secret of the configuration is sent to. A stored secret is bound to them: it is kept
 * only while they name the endpoint it was entered for. The AWS keys go to the region's endpoints or to the
 * overrides they were entered with.
 */
export const WIDGET_CONFIG_SECRET_ENDPOINTS: Readonly<Record<string, readonly string[]>> = {
  'google.serviceAccountKey': ['google.url', 'google.feedback_url', 'google.translate_url', 'google.tts_url'],
  'google.apiKey': ['google.translate_url', 'google.tts_url'],
  'aws.key': ['aws.translate_url', 'aws.polly_url'],
  'aws.secret': ['aws.translate_url', 'aws.polly_url'],
  'genesys.clientSecret': ['genesys.SERVER_URL'],
  'openai.apiKey': ['openai.url'],
  'libretranslate.apiKey': ['libretranslate.url'],
};

/**
 * The secret paths whose stored value `after` keeps (per `kept`) although one of its address fields names another
 * endpoint than in `before`: each must be entered again.
 */
export function secretsKeptAcrossEndpoints(
  before: WidgetConfig,
  after: WidgetConfig,
  kept: (path: string) => boolean,
): string[] {
  return WIDGET_CONFIG_SECRET_PATHS.filter(
    (path) =>
      secretAt(before, path) !== '' &&
      kept(path) &&
      (WIDGET_CONFIG_SECRET_ENDPOINTS[path] ?? []).some(
        (field) => !isSameSecretEndpoint(secretAt(before, field), secretAt(after, field)),
      ),
  );
}

/**
 * Only what the browser widget needs, listed field by field. Parsing through it keeps the listed fields and drops
 * everything else, so engines, provider blocks and allowed origins are never part of it.
 */
export const PublicWidgetConfigSchema = z.object({
  identity: WidgetIdentitySchema.pick({
    name: true,
    description: true,
    displayName: true,
    botName: true,
    botUserName: true,
    avatarUri: true,
  }),
  language: WidgetLanguageSchema.pick({
    default_language: true,
    fallback_language: true,
    autoTranslate: true,
  }),
  welcome: WidgetWelcomeSchema.pick({
    welcomeText: true,
    welcomeText_enabled: true,
    welcomeMenu: true,
    popupMenu: true,
    enablePopupMenu: true,
    start_suggestions: true,
  }),
  behaviour: WidgetBehaviourSchema.pick({
    sessionStorage: true,
    enableUserFeedback: true,
    speaker_enabled: true,
    microphone_enabled: true,
    muted: true,
    msgRecvTone_enabled: true,
    msgRecvTone: true,
    voice: true,
  }),
  /**
   * `enabled`: "Talk to an agent" is offered now. `offlineText`: the bot hands over to a person, but not now (out of
   * its business hours); the widget shows this text instead of offering one. Null otherwise.
   */
  liveAgent: z.object({ enabled: z.boolean(), offlineText: z.string().nullable() }),
  /** Which server services this bot offers; the widget hides translation and server voice when they are off. */
  services: z.object({ translate: z.boolean(), tts: z.boolean() }),
  appearance: WidgetAppearanceSchema,
  feedback: WidgetFeedbackSchema,
  titles: WidgetTitlesSchema,
  masking: WidgetMaskingSchema,
  launcher: WidgetLauncherSchema,
  window: WidgetWindowSchema,
});
export type PublicWidgetConfig = z.infer<typeof PublicWidgetConfigSchema>;

export interface WidgetServices {
  translate: boolean;
  tts: boolean;
}

/** The public projection of a configuration: the only part of a bot's configuration a browser ever receives. */
export function publicWidgetConfig(
  config: WidgetConfig,
  services: WidgetServices = { translate: false, tts: false },
  inHours = true,
): PublicWidgetConfig {
  return PublicWidgetConfigSchema.parse({
    identity: config.identity,
    language: config.language,
    welcome: config.welcome,
    behaviour: config.behaviour,
    liveAgent: {
      enabled: offersHandover(config, inHours),
      offlineText: offersHandover(config) && !inHours ? config.engines.offlineText : null,
    },
    services,
    appearance: config.appearance,
    feedback: { ...config.feedback, disclaimer: shownDisclaimer(config) },
    titles: config.titles,
    masking: config.masking,
    launcher: config.launcher,
    window: config.window,
  });
}

/**
 * The disclaimer a visitor sees: the tenant's own text as written, or, while it is one the product wrote, the one
 * that names what the bot's masking patterns mask now.
 */
export function shownDisclaimer(config: Pick<WidgetConfig, 'feedback' | 'masking'>): string {
  const { disclaimer } = config.feedback;
  return isGeneratedDisclaimer(disclaimer) ? maskingDisclaimer(config.masking.patterns) : disclaimer;
}
