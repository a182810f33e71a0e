import { describe, expect, it } from 'vitest';
import { PIN_PATTERN, SSN_PATTERN } from './masks';
import {
  isMaskedSecret,
  maskedWidgetConfig,
  maskSecret,
  mergeWidgetConfigSecrets,
  offersHandover,
  PublicWidgetConfigSchema,
  publicWidgetConfig,
  secretPathsOf,
  WIDGET_CONFIG_SECRET_PATHS,
  type WidgetConfig,
  WidgetConfigSchema,
  type WidgetConfigInput,
} from './widget-config';

const defaults = WidgetConfigSchema.parse({});

function valueAt(config: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], config);
}

describe('the default widget configuration holds every default of the spec', () => {
  // Each row: the spec's wording, the path in the configuration, the value it must have.
  const rows: [string, string, unknown][] = [
    ["assistant name {name} (the product's name)", 'identity.name', 'Omnibot'],
    [
      "description 'This is a default bot. Change me.limit only to 165 characters'",
      'identity.description',
      'This is a default bot. Change me.limit only to 165 characters',
    ],
    [
      'a welcome text that says the assistant is a smart virtual assistant and asks how it can help',
      'welcome.welcomeText',
      "Hi! I'm your smart virtual assistant. How can I help you today?",
    ],
    ["the bot's display name is 'Virtual Agent'", 'identity.displayName', 'Virtual Agent'],
    ["the user's display name is 'Me'", 'identity.botUserName', 'Me'],
    ['default_language en', 'language.default_language', 'en'],
    ['fallback_language en', 'language.fallback_language', 'en'],
    ['welcomeText_enabled (false)', 'welcome.welcomeText_enabled', false],
    ['welcome.text list ... Welcome menu ... empty by default', 'welcome.welcomeMenu', []],
    ['popup.menu list ... popup menu empty by default', 'welcome.popupMenu', []],
    ["enablePopupMenu (the string 'false')", 'welcome.enablePopupMenu', false],
    ["enableMasking (the string 'false')", 'masking.enableMasking', false],
    [
      'start_suggestions (list of strings; two placeholder strings by default)',
      'welcome.start_suggestions',
      ['What can you do?', 'How can I contact you?'],
    ],
    ['consoleLog true', 'behaviour.consoleLog', true],
    ['sessionStorage true', 'behaviour.sessionStorage', true],
    ['botExternal true', 'behaviour.botExternal', true],
    ['enableUserFeedback true', 'behaviour.enableUserFeedback', true],
    ['speaker_enabled false', 'behaviour.speaker_enabled', false],
    ['microphone_enabled false', 'behaviour.microphone_enabled', false],
    ['muted true', 'behaviour.muted', true],
    ['autoTranslate false', 'language.autoTranslate', false],
    ['autoAgentTranslate false', 'language.autoAgentTranslate', false],
    ['useAWSTTS false', 'behaviour.useAWSTTS', false],
    ['msgRecvTone_enabled false', 'behaviour.msgRecvTone_enabled', false],
    ["voice 'native'", 'behaviour.voice', 'native'],
    ['bot_or_agent is bot', 'engines.bot_or_agent', 'bot'],
    [
      "bot engine ... a cloud dialog provider (Omnibot's own dialog engine: builtin)",
      'engines.botEngine',
      'builtin',
    ],
    [
      "translate engine ... a cloud dialog provider (Omnibot's own: builtin)",
      'engines.translateEngine',
      'builtin',
    ],
    [
      'live-agent provider is a contact-center platform (setting value genesys)',
      'engines.liveagent',
      'genesys',
    ],
    ['... and is disabled', 'engines.enableliveagent', false],
    ['no chatbot-engine integration until one is chosen', 'engines.integration_id', null],
    ['bubble (fontFamily Helvetica ...)', 'appearance.bubble.fontFamily', 'Helvetica'],
    ['bubble (... fontSize 15px)', 'appearance.bubble.fontSize', '15px'],
    ['Video ... feature ... off by default', 'appearance.video', false],
    ['attachment ... feature ... off by default', 'appearance.attachment', false],
    ['screenshare features ... off by default', 'appearance.screenshare', false],
    [
      "Feedback disclaimer: 'Please do not submit sensitive information such as SSN, PIN, Credit Card etc.', naming only what the default patterns mask",
      'feedback.disclaimer',
      'Please do not submit sensitive information such as SSN, PIN etc.',
    ],
    ["a text input titled 'Message'", 'titles.inputTitle', 'Message'],
    ["a 'Send' button", 'titles.sendTitle', 'Send'],
    ["a microphone button titled 'Voice Input'", 'titles.microphoneTitle', 'Voice Input'],
    [
      "message 'Speech recognition is not available' when unavailable",
      'titles.recognitionUnavailable',
      'Speech recognition is not available',
    ],
    ['Mute ... titles for the speaker', 'titles.muteTitle', 'Mute'],
    ['... Unmute titles for the speaker', 'titles.unMuteTitle', 'Unmute'],
    [
      'masking: four-digit PIN and 3-2-4 digit SSN',
      'masking.patterns',
      [
        { name: 'PIN', regExpression: PIN_PATTERN, preset: 'pin' },
        { name: 'SSN', regExpression: SSN_PATTERN, preset: 'ssn' },
      ],
    ],
    ["dialogflowcx list of agents (... location 'global' ...) — empty list", 'google.dialogflowcx', []],
    ['aws block: ... region us-west-2 / Default region us-west-2', 'aws.region', 'us-west-2'],
    ['translate (Formality FORMAL ...)', 'aws.translate.Formality', 'FORMAL'],
    ['translate (... Profanity MASK)', 'aws.translate.Profanity', 'MASK'],
    ['lex (... localeId en_US)', 'aws.lex.localeId', 'en_US'],
    [
      'bedrock (... max_tokens 1024 ...) / Both AI text models: token limit 1024',
      'aws.bedrock.max_tokens',
      1024,
    ],
    ['bedrock (... temperature 0.7) / Both AI text models: temperature 0.7', 'aws.bedrock.temperature', 0.7],
    ['openai block: ... max_tokens 1024', 'openai.max_tokens', 1024],
    ['openai block: ... temperature 0.7', 'openai.temperature', 0.7],
    ['chime (... video max bandwidth 1400 ...)', 'aws.chime.videoMaxBandwidthKbps', 1400],
    ['chime (... background blur strength high ...)', 'aws.chime.backgroundBlurStrength', 'high'],
    ['chime (... blur image enabled)', 'aws.chime.blurImageEnabled', true],
    ['a launcher button (position right ...)', 'launcher.position', 'right'],
    ['launcher offset 2 percent', 'launcher.positionPct', 2],
    ['launcher ... icon 50px (width)', 'launcher.launcherIcon.width', 50],
    ['launcher ... icon 50px (height)', 'launcher.launcherIcon.height', 50],
    ['launcher ... border radius 50', 'launcher.borderRadius', 50],
    ["the close label is 'Virtual Assistant'", 'launcher.closeText', 'Virtual Assistant'],
    [
      'The launcher shows an info text introducing the assistant',
      'launcher.infoText',
      "Hi! I'm your virtual assistant. Ask me anything.",
    ],
    ['enableLauncher (the launcher is shown)', 'launcher.enableLauncher', true],
    ['a chat window of 450px by 750px (width)', 'window.width', 450],
    ['a chat window of 450px by 750px (height)', 'window.height', 750],
    ['no origin may embed a bot until one is listed', 'install.allowedOrigins', []],
    ['no provider secret is set by default (aws key)', 'aws.key', ''],
    ['no provider secret is set by default (openai apiKey)', 'openai.apiKey', ''],
    [
      'no speech model is chosen by default (the widget uses the browser voice)',
      'engines.speech_model_id',
      null,
    ],
    ['no contact-centre integration is chosen by default', 'engines.liveagent_integration_id', null],
    ['no LibreTranslate server by default', 'libretranslate.url', ''],
    ['no provider secret is set by default (LibreTranslate apiKey)', 'libretranslate.apiKey', ''],
  ];

  it.each(rows)('%s -> %s', (_spec, path, expected) => {
    expect(valueAt(defaults, path)).toEqual(expected);
  });

  it('the description default fits the 165-character limit and one more character is refused', () => {
    expect(defaults.identity.description.length).toBeLessThanOrEqual(165);
    expect(WidgetConfigSchema.safeParse({ identity: { description: 'x'.repeat(165) } }).success).toBe(true);
    const tooLong = WidgetConfigSchema.safeParse({ identity: { description: 'x'.repeat(166) } });
    expect(tooLong.error?.issues[0]?.message).toBe('The description has at most 165 characters.');
    expect(tooLong.error?.issues[0]?.path).toEqual(['identity', 'description']);
  });

  it("reads the older string flags 'true' and 'false' as booleans", () => {
    const config = WidgetConfigSchema.parse({
      welcome: { enablePopupMenu: 'true' },
      masking: { enableMasking: 'false' },
    });
    expect(config.welcome.enablePopupMenu).toBe(true);
    expect(config.masking.enableMasking).toBe(false);
  });

  it('a partial configuration keeps the defaults of everything it does not set', () => {
    const config = WidgetConfigSchema.parse({ appearance: { userBubble: { textColor: '#000' } } });
    expect(config.appearance.userBubble.textColor).toBe('#000');
    expect(config.appearance.bubble.fontSize).toBe('15px');
    expect(config.window.width).toBe(450);
  });
});

describe('WidgetConfigSchema refuses bad values with clear messages', () => {
  const refusals: [string, WidgetConfigInput, string][] = [
    [
      'a colour that is CSS',
      { appearance: { backgroundColor: 'red; background: url(x)' } },
      'A colour is #rgb',
    ],
    ['a 4-digit hex colour', { appearance: { userBubble: { textColor: '#abcd' } } }, 'A colour is #rgb'],
    ['an unlisted named colour', { launcher: { background: 'rebeccapurple' } }, 'one of the named colours'],
    ['a javascript: image URL', { identity: { avatarUri: 'javascript:alert(1)' } }, 'http:// or https://'],
    [
      'a data: image URL',
      { launcher: { logo: 'data:image/svg+xml,<svg onload=alert(1)>' } },
      'http:// or https://',
    ],
    ['a relative URL', { behaviour: { msgRecvTone: '/tone.mp3' } }, 'http:// or https://'],
    [
      'an origin with a path',
      { install: { allowedOrigins: ['https://a.example/page'] } },
      'scheme, host and',
    ],
    [
      'an origin with a trailing slash',
      { install: { allowedOrigins: ['https://a.example/'] } },
      'scheme, host and',
    ],
    ['a file: origin', { install: { allowedOrigins: ['file://x'] } }, 'scheme, host and'],
    [
      'a duplicated origin',
      { install: { allowedOrigins: ['https://a.example', 'https://a.example'] } },
      'listed twice',
    ],
    ['an unknown engine', { engines: { botEngine: 'eliza' as 'builtin' } }, 'The bot engine is one of'],
    ['a temperature above 2', { openai: { temperature: 3 } }, 'temperature is at most 2'],
    ['a window narrower than 280 px', { window: { width: 100 } }, 'The window width (px) is at least 280'],
    ['a fractional icon size', { launcher: { launcherIcon: { width: 50.5 } } }, 'must be a whole number'],
    ['a launcher offset over 50 %', { launcher: { positionPct: 80 } }, 'is at most 50'],
    [
      'a font family with CSS',
      { appearance: { bubble: { fontFamily: 'x;}body{display:none' } } },
      'A font family',
    ],
    ['a font size in em', { appearance: { bubble: { fontSize: '2em' } } }, 'A font size is'],
    ['a language that is not a code', { language: { default_language: 'English' } }, 'A language is a code'],
    ['a NUL in a text', { titles: { sendTitle: 'Se\u0000nd' } }, 'NUL characters'],
    ['an empty name', { identity: { name: '  ' } }, 'The name is required.'],
    [
      'a flag that is not a boolean',
      { behaviour: { muted: 'yes' as unknown as boolean } },
      'A flag is true or false.',
    ],
    [
      'a catastrophic mask pattern',
      { masking: { patterns: [{ name: 'Evil', regExpression: '(a+)+' }] } },
      'Nested quantifiers',
    ],
    ['a mask character of two characters', { masking: { maskCharacter: '**' } }, 'exactly one character'],
    ['an AWS region that is not one', { aws: { region: 'mars' } }, 'An AWS region looks like us-west-2.'],
    ['a RAG id that is not an id', { engines: { rag_id: '1 OR 1=1' } }, 'Unknown RAG id'],
    ['a speech model id that is not an id', { engines: { speech_model_id: 'x' } }, 'Unknown speech model id'],
    [
      'a LibreTranslate address that is not http',
      { libretranslate: { url: 'ftp://lt' } },
      'A URL must start',
    ],
    [
      'an over-long welcome menu',
      { welcome: { welcomeMenu: Array.from({ length: 21 }, () => ({ label: 'a', text: 'b' })) } },
      'at most 20 items',
    ],
  ];

  it.each(refusals)('refuses %s', (_name, input, message) => {
    const result = WidgetConfigSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message).join(' | ')).toContain(message);
  });

  it('accepts every allowed shape of the same fields', () => {
    const result = WidgetConfigSchema.safeParse({
      appearance: {
        backgroundColor: '#FFF',
        backgroundColorDark: 'transparent',
        bubble: { fontFamily: "'Open Sans', Arial" },
      },
      identity: { avatarUri: 'https://cdn.example/a.png' },
      install: { allowedOrigins: ['https://a.example', 'http://localhost:5173'] },
      language: { default_language: 'pt-BR' },
      engines: { botEngine: 'openai', rag_id: null },
    });
    expect(result.success).toBe(true);
  });
});

const SECRET_MARKER = 'SECRET-MARKER-d41d8cd98f00b204';

function withSecrets(config: WidgetConfig, value: (path: string) => string): WidgetConfig {
  const copy = structuredClone(config) as unknown as Record<string, Record<string, unknown>>;
  for (const path of WIDGET_CONFIG_SECRET_PATHS) {
    const [group, field] = path.split('.');
    const holder = copy[group ?? ''];
    if (holder !== undefined && field !== undefined) holder[field] = value(path);
  }
  return WidgetConfigSchema.parse(copy);
}

/** A small deterministic generator so the random configurations are the same on every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function randomConfig(next: () => number): WidgetConfig {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
  const word = () => `${SECRET_MARKER}-${Math.floor(next() * 1e6)}`;
  const config = WidgetConfigSchema.parse({
    identity: { name: pick(['Ada', 'Bot', 'Helper']), description: pick(['', 'Hi there']) },
    engines: {
      botEngine: pick(['builtin', 'openai', 'dialogflowcx', 'lex', 'bedrock'] as const),
      enableliveagent: next() > 0.5,
      liveagent: pick(['inbox', 'genesys', 'connect'] as const),
      liveagent_integration_id: next() > 0.5 ? '3f1c9a52-7f3e-4b1a-9d2c-5e6f7a8b9c0d' : null,
    },
    masking: { enableMasking: next() > 0.5 },
    install: { allowedOrigins: next() > 0.5 ? ['https://shop.example'] : [] },
    welcome: { welcomeMenu: next() > 0.5 ? [{ label: 'Hours', text: 'When are you open?' }] : [] },
    google: {
      dialogflowcx: next() > 0.5 ? [{ agentName: 'Main', agentId: word() }] : [],
      default_agent: word(),
    },
    aws: { lex: { botId: word() }, connect: { instanceId: word() }, bedrock: { model: word() } },
    genesys: { DEPLOYMENT_ID: word(), clientId: word() },
    openai: { model: word(), url: 'https://api.example/v1' },
  });
  return withSecrets(config, () => (next() > 0.2 ? word() : ''));
}

describe('provider secrets', () => {
  it('the secret fields are the provider keys and nothing else', () => {
    expect([...WIDGET_CONFIG_SECRET_PATHS].sort()).toEqual(
      [
        'aws.key',
        'aws.secret',
        'genesys.clientSecret',
        'google.apiKey',
        'google.serviceAccountKey',
        'libretranslate.apiKey',
        'openai.apiKey',
      ].sort(),
    );
  });

  it('the public schema itself declares no secret field', () => {
    expect(secretPathsOf(PublicWidgetConfigSchema)).toEqual([]);
  });

  it('publicWidgetConfig carries no secret whatever the configuration holds', () => {
    const full = withSecrets(defaults, (path) => `${SECRET_MARKER}:${path}`);
    const projection = JSON.stringify(publicWidgetConfig(full));
    expect(projection).not.toContain(SECRET_MARKER);
  });

  it('publicWidgetConfig carries none of the engines, provider blocks or allowed origins', () => {
    const projection = publicWidgetConfig(defaults);
    expect(Object.keys(projection).sort()).toEqual(
      [
        'appearance',
        'behaviour',
        'feedback',
        'identity',
        'language',
        'liveAgent',
        'launcher',
        'masking',
        'services',
        'titles',
        'welcome',
        'window',
      ].sort(),
    );
    const json = JSON.stringify(projection);
    for (const hidden of [
      'allowedOrigins',
      'rag_id',
      'model_id',
      'integration_id',
      'botEngine',
      'region',
      'consoleLog',
    ]) {
      expect(json).not.toContain(hidden);
    }
  });

  it('publicWidgetConfig never leaks a marker over 200 random configurations', () => {
    const next = random(20_261_123);
    const handover = { offered: 0, notOffered: 0, viaIntegration: 0 };
    for (let round = 0; round < 200; round += 1) {
      const config = randomConfig(next);
      expect(JSON.stringify(config)).toContain(SECRET_MARKER);
      const projection = publicWidgetConfig(config);
      expect(JSON.stringify(projection)).not.toContain(SECRET_MARKER);
      expect(PublicWidgetConfigSchema.parse(projection)).toEqual(projection);
      expect(projection.liveAgent.enabled).toBe(offersHandover(config));
      expect(JSON.stringify(projection)).not.toContain('3f1c9a52');
      if (projection.liveAgent.enabled) handover.offered += 1;
      else handover.notOffered += 1;
      if (projection.liveAgent.enabled && config.engines.liveagent !== 'inbox') handover.viaIntegration += 1;
    }
    // The random configurations reach every branch: offered through the inbox and a contact centre, and not.
    expect(handover.offered).toBeGreaterThan(20);
    expect(handover.notOffered).toBeGreaterThan(20);
    expect(handover.viaIntegration).toBeGreaterThan(10);
  });

  it('a configuration with extra keys smuggled in still projects without them', () => {
    const smuggled = {
      ...defaults,
      identity: { ...defaults.identity, apiKey: SECRET_MARKER },
    } as WidgetConfig;
    expect(JSON.stringify(publicWidgetConfig(smuggled))).not.toContain(SECRET_MARKER);
  });

  it('maskSecret shows the last four characters of long secrets only', () => {
    expect(maskSecret('')).toBe('');
    expect(maskSecret('short-secret')).toBe('****');
    expect(maskSecret('sk-abcdefghijklmnopWXYZ')).toBe('****WXYZ');
    expect(isMaskedSecret('****WXYZ')).toBe(true);
    expect(isMaskedSecret('sk-abc')).toBe(false);
  });

  it('maskedWidgetConfig masks every secret and keeps the other fields', () => {
    const full = withSecrets(defaults, (path) => `${SECRET_MARKER}:${path}:TAIL`);
    const masked = maskedWidgetConfig(full);
    expect(JSON.stringify(masked)).not.toContain(SECRET_MARKER);
    for (const path of WIDGET_CONFIG_SECRET_PATHS) expect(valueAt(masked, path)).toBe('****TAIL');
    expect(masked.identity).toEqual(full.identity);
    expect(valueAt(full, 'openai.apiKey')).toBe(`${SECRET_MARKER}:openai.apiKey:TAIL`);
  });

  it('mergeWidgetConfigSecrets keeps a stored secret sent back masked and takes a new or cleared one', () => {
    const stored = withSecrets(defaults, (path) => `stored-value-for-${path}`);
    const edited = maskedWidgetConfig(stored);
    edited.openai.apiKey = 'sk-new-key-1234567890';
    edited.aws.secret = '';
    const merged = mergeWidgetConfigSecrets(edited, stored);
    expect(merged.openai.apiKey).toBe('sk-new-key-1234567890');
    expect(merged.aws.secret).toBe('');
    expect(merged.aws.key).toBe('stored-value-for-aws.key');
    expect(merged.genesys.clientSecret).toBe('stored-value-for-genesys.clientSecret');
  });
});

describe('offersHandover', () => {
  const engines = (enableliveagent: boolean, liveagent: string) => ({
    engines: { enableliveagent, liveagent },
  });
  const ID = '3f1c9a52-7f3e-4b1a-9d2c-5e6f7a8b9c0d';
  it('offers a person only with live agents on and a provider that can be reached', () => {
    expect(offersHandover(engines(true, 'inbox'))).toBe(true);
    expect(offersHandover(engines(false, 'inbox'))).toBe(false);
    expect(offersHandover(engines(true, 'genesys'))).toBe(false);
    expect(offersHandover(engines(true, 'connect'))).toBe(false);
  });
  it('offers a contact centre only once the bot names its integration', () => {
    const withId = (enableliveagent: boolean, liveagent: string, id: string | null) => ({
      engines: { enableliveagent, liveagent, liveagent_integration_id: id },
    });
    expect(offersHandover(withId(true, 'genesys', ID))).toBe(true);
    expect(offersHandover(withId(true, 'connect', ID))).toBe(true);
    expect(offersHandover(withId(false, 'connect', ID))).toBe(false);
    expect(offersHandover(withId(true, 'genesys', null))).toBe(false);
    expect(offersHandover(withId(true, 'inbox', null))).toBe(true);
    expect(offersHandover(withId(true, 'elsewhere', ID))).toBe(false);
  });
});

describe('hand-over out of hours', () => {
  const handsOver = WidgetConfigSchema.parse({
    engines: { enableliveagent: true, liveagent: 'inbox', offlineText: 'Back at nine.' },
  });

  it('offers no person out of hours, and none without live agents whatever the hours', () => {
    expect(offersHandover(handsOver, true)).toBe(true);
    expect(offersHandover(handsOver, false)).toBe(false);
    expect(offersHandover(defaults, true)).toBe(false);
  });

  it('projects the offline text only for a bot that hands over, and only out of hours', () => {
    expect(publicWidgetConfig(handsOver).liveAgent).toEqual({ enabled: true, offlineText: null });
    expect(publicWidgetConfig(handsOver, undefined, false).liveAgent).toEqual({
      enabled: false,
      offlineText: 'Back at nine.',
    });
    expect(publicWidgetConfig(defaults, undefined, false).liveAgent).toEqual({
      enabled: false,
      offlineText: null,
    });
  });

  it('has a default offline text and takes a schedule id', () => {
    expect(defaults.engines.offlineText).toMatch(/business hours/);
    expect(defaults.engines.schedule_id).toBeNull();
    expect(WidgetConfigSchema.safeParse({ engines: { schedule_id: 'not-an-id' } }).success).toBe(false);
  });
});
