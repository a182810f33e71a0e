import { randomUUID } from 'node:crypto';
import type { Browser, FrameLocator, Page } from '@playwright/test';
import { LIVE_AGENT_ERRORS } from '@omnibot/contracts';
import { api, startHostSite, type HostSite } from './support/bots';
import { signInWithApi } from './support/identity';
import { principalFactory, type Principal } from './support/principals';
import { expect, testWithMail as test } from './support/server';
import { defined } from '../apps/console/src/test/defined';
import {
  type AmazonConnectServer,
  startAmazonConnectServer,
} from '../apps/server/src/test/amazon-connect-server';
import {
  type FakeGenesysServer,
  startGenesysWebMessagingServer,
} from '../apps/server/src/test/genesys-web-messaging-server';

/*
 * Hand-over to a contact centre, end to end: the organisation's administrator adds the contact centre in the console
 * and picks it in the bot's engines, a visitor on another origin asks for a person, and the contact centre's agent
 * answers. The contact centres are the local servers of the server's tests, run in this Playwright worker: one
 * speaking Genesys Cloud's Web Messaging guest protocol, one Amazon Connect's APIs and participant socket; their
 * control API plays the agent. The server is the built one with its default wiring: its relay opens the tenant's
 * stored integration, and FETCH_ALLOW_ADDRESSES lets its guarded client reach them on loopback.
 */
const MASTER = { email: 'admin@example.com', password: 'Contact-Centre-Handover-Master-Passw0rd' };
test.use({
  serverEnv: {
    ADMIN_PASSWORD: MASTER.password,
    WIDGET_RATE_LIMIT_CONVERSATION: '1000',
    WIDGET_RATE_LIMIT_IP: '1000',
    FETCH_ALLOW_ADDRESSES: '127.0.0.1',
  },
  viewport: { width: 1280, height: 900 },
});

const FALLBACK = 'I cannot help with that, but a person can.';
const CARD = '4111 1111 1111 1111';
const EMAIL = 'jane.doe@example.com';
const MASKED_CARD = '*'.repeat(CARD.length);
const QUESTION = `My card ${CARD} was charged twice for the ferry. Write to me at ${EMAIL} please.`;
const AGENT = 'Ann Harbour';
/** The bot masks card numbers and e-mail addresses in what it stores, and so in what the contact centre gets. */
const MASKING = {
  enableMasking: true,
  patterns: [
    { name: 'Card number', regExpression: '', preset: 'card' },
    { name: 'E-mail', regExpression: '', preset: 'email' },
  ],
};

let admin: Principal;

test.beforeAll(async ({ playwright, mailbox, server }) => {
  test.setTimeout(120_000);
  const request = await playwright.request.newContext({ baseURL: server.url });
  const signIn = await request.post('/api/auth/sign-in/email', {
    data: MASTER,
    headers: { origin: server.url },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const { createOrganisation, createPerson } = principalFactory(request, mailbox, server.url);
  const tenantId = await createOrganisation({
    name: 'Harbour Ferries',
    domain: 'harbour-ferries.test',
    codes: ['casesummary', 'omnirag'],
  });
  admin = await createPerson(tenantId, 'admin@harbour-ferries.test', 'administrator', 'administrator');
  await request.dispose();
});

/** The contact centre's side of one hand-over: what reached it, and its agent's hands. */
interface AgentSide {
  /** The case summary the contact centre received with the conversation. */
  summary: string | undefined;
  /** What the agent reads first: the conversation with the bot. */
  opening: string;
  /** The visitor's texts that reached the agent after the opening, in order. */
  visitorTexts(): string[];
  join(name: string): void;
  type(): void;
  say(text: string): void;
  end(): void;
}

interface ContactCentre {
  /** As the console names it ("Hand over to"). */
  label: 'Genesys Cloud' | 'Amazon Connect';
  engine: 'genesys' | 'connect';
  /** The integration's settings pointing at the local server, as POST /v1/integrations takes them. */
  settings: Record<string, string>;
  /** Fills the console's add form with the same settings. */
  fill(page: Page): Promise<void>;
  /** The newest hand-over, once the server started it at the contact centre. */
  handedOver(): Promise<AgentSide>;
  /** The contact centre refuses the next start with `status`. */
  refuseNextStart(status: 401 | 500): void;
  /** The contact centre takes conversations again. */
  recover(): void;
  close(): Promise<void>;
}

async function genesys(): Promise<ContactCentre> {
  const fake: FakeGenesysServer = await startGenesysWebMessagingServer({
    allowedOrigin: 'https://ferries.example.com',
  });
  return {
    label: 'Genesys Cloud',
    engine: 'genesys',
    settings: { server_url: fake.serverUrl, deployment_id: fake.deploymentId, origin: fake.allowedOrigin },
    async fill(page) {
      await page.getByRole('textbox', { name: /^server url/i }).fill(fake.serverUrl);
      await page.getByRole('textbox', { name: /deployment id/i }).fill(fake.deploymentId);
      await page.getByRole('textbox', { name: /^origin/i }).fill(fake.allowedOrigin);
    },
    async handedOver() {
      const session = await fake.waitFor(() => {
        const newest = fake.sessionFor();
        return newest && newest.texts.length > 0 ? newest : null;
      }, 30_000);
      const first = defined(session.texts[0]);
      return {
        summary: first.customAttributes?.omnibot_summary,
        opening: first.text,
        visitorTexts: () => session.texts.slice(1).map((text) => text.text),
        join: (name) => fake.join(session.token, name),
        type: () => fake.type(session.token),
        say: (text) => void fake.say(session.token, text),
        end: () => fake.end(session.token),
      };
    },
    refuseNextStart(status) {
      fake.configureFailure = { status, reason: status === 401 ? 'Unauthorized' : 'Internal error' };
    },
    recover() {
      fake.configureFailure = null;
    },
    close: () => fake.close(),
  };
}

async function amazonConnect(): Promise<ContactCentre> {
  const fake: AmazonConnectServer = await startAmazonConnectServer({ region: 'eu-west-2' });
  const chats = () => fake.chats.length;
  return {
    label: 'Amazon Connect',
    engine: 'connect',
    settings: {
      region: fake.region,
      instance_id: fake.instanceId,
      contact_flow_id: fake.contactFlowId,
      access_key_id: fake.keys.accessKeyId,
      secret_access_key: fake.keys.secretAccessKey,
      connect_endpoint: fake.baseUrl,
      participant_endpoint: fake.baseUrl,
    },
    async fill(page) {
      await page.getByText('Amazon Connect', { exact: true }).click();
      await page.getByRole('textbox', { name: /^region/i }).fill(fake.region);
      await page.getByRole('textbox', { name: /instance id/i }).fill(fake.instanceId);
      await page.getByRole('textbox', { name: /contact flow id/i }).fill(fake.contactFlowId);
      await page.getByRole('textbox', { name: /access key id/i }).fill(fake.keys.accessKeyId);
      await page.getByLabel(/^secret access key/i).fill(fake.keys.secretAccessKey);
      await page.getByRole('button', { name: 'Advanced' }).click();
      await page.getByRole('textbox', { name: 'Connect endpoint' }).fill(fake.baseUrl);
      await page.getByRole('textbox', { name: 'Participant endpoint' }).fill(fake.baseUrl);
    },
    async handedOver() {
      await expect.poll(chats, { timeout: 30_000 }).toBeGreaterThan(0);
      const chat = fake.chat();
      // The agent's messages reach the server over the participant socket: wait until it is open.
      await expect.poll(() => fake.socketCount(chat.contactId), { timeout: 30_000 }).toBe(1);
      return {
        summary: chat.attributes.omnibot_summary,
        opening: chat.initialMessage ?? '',
        visitorTexts: () => [...chat.customerTexts],
        join: (name) => void fake.join(name, chat.contactId),
        type: () => void fake.type(chat.contactId),
        say: (text) => void fake.say(text, chat.contactId),
        end: () => void fake.end(chat.contactId),
      };
    },
    refuseNextStart(status) {
      fake.failNext(status, { pathPrefix: '/contact/chat' });
    },
    recover() {
      fake.clearFailures();
    },
    close: () => fake.close(),
  };
}

const chat = (page: Page, botId: string): FrameLocator =>
  page.frameLocator(`[data-omnibot-frame="${botId}"]`);

async function say(frame: FrameLocator, text: string) {
  await frame.getByRole('textbox', { name: 'Message' }).fill(text);
  await frame.getByRole('button', { name: 'Send', exact: true }).click();
}

/** The administrator adds the contact centre in the console, tests it and lands on its page; returns its address. */
async function addContactCentre(page: Page, centre: ContactCentre, name: string): Promise<string> {
  await page.goto('/bot/integration/ccaas');
  await expect(page.getByRole('heading', { level: 1, name: 'Contact centres' })).toBeVisible();
  await page.getByRole('link', { name: 'Add contact centre' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add contact centre' })).toBeVisible();
  await page.getByRole('textbox', { name: /^name/i }).fill(name);
  await centre.fill(page);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connection works' })).toBeVisible();
  await page.getByRole('button', { name: 'Add integration' }).click();
  await expect(page.getByText(`${name} was added.`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText(`Contact centre · ${centre.label}`)).toBeVisible();
  await expect(page.getByText(/No bot hands over to this contact centre yet/)).toBeVisible();
  return page.url();
}

/** An enabled bot for the visitors of `host` that falls back on everything, masking cards and e-mail addresses. */
async function createBot(
  page: Page,
  base: string,
  name: string,
  host: HostSite,
  engines: Record<string, unknown> = {},
): Promise<string> {
  const bot = await api<{ id: string }>(page, base, 'POST', '/v1/bots', {
    name,
    config: {
      install: { allowedOrigins: [host.origin] },
      masking: MASKING,
      engines: { botEngine: 'builtin', fallbackText: FALLBACK, ...engines },
    },
  });
  await api(page, base, 'PATCH', `/v1/bots/${bot.id}`, { enabled: true });
  return bot.id;
}

/** In the bot's engines, the administrator offers a person at this contact centre, through `integration`. */
async function pickContactCentre(
  page: Page,
  {
    botId,
    botName,
    centre,
    integration,
  }: { botId: string; botName: string; centre: ContactCentre; integration: string },
) {
  await page.goto(`/bot/customize?bot_id=${botId}`);
  await page.getByRole('button', { name: 'Engines' }).click();
  await page.getByRole('switch', { name: 'Offer a live agent' }).check();
  await page.getByRole('combobox', { name: 'Hand over to' }).click();
  await page.getByRole('option', { name: centre.label }).click();
  await page.getByRole('combobox', { name: `${centre.label} integration` }).click();
  await page.getByRole('option', { name: integration }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(`The settings of "${botName}" were saved.`)).toBeVisible();
}

/** A case-summary configuration at hand-over for the bot (no chat model: extractive), made in the console. */
async function summariseAtHandover(page: Page, botName: string, name: string) {
  await page.goto('/cs/config/add');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('combobox', { name: 'Bots', exact: true }).click();
  await page.getByRole('option', { name: botName }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('checkbox', { name: 'At hand-over' })).toBeChecked();
  await page.getByRole('button', { name: 'Create configuration' }).click();
  await expect(page.getByText(`Configuration "${name}" was created.`)).toBeVisible();
}

/** Each contact centre, and the refusal its fault case plays: Genesys refuses the guest, Connect fails. */
const CENTRES = [
  {
    title: 'Genesys Cloud',
    make: genesys,
    fault: 401,
    words: LIVE_AGENT_ERRORS['handover/provider-refused'],
  },
  {
    title: 'Amazon Connect',
    make: amazonConnect,
    fault: 500,
    words: LIVE_AGENT_ERRORS['handover/provider-unavailable'],
  },
] as const;

for (const { title, make, fault, words } of CENTRES) {
  test.describe(`hand-over to ${title}`, () => {
    let centre!: ContactCentre;
    let host!: HostSite;
    let base = '';
    let botId = '';
    let botName = '';
    let integration = '';
    /** What the test started, stopped after it in reverse order whatever failed. */
    const started: (() => Promise<void>)[] = [];

    test.beforeEach(async ({ page, baseURL }) => {
      base = defined(baseURL);
      centre = await make();
      started.push(() => centre.close());
      host = await startHostSite(base);
      started.push(() => host.close());
      // Names unique within the organisation, which the repeated runs of a worker share.
      const tag = randomUUID().slice(0, 8);
      botName = `Ferry desk ${tag}`;
      integration = `Harbour ${centre.label} ${tag}`;
      await signInWithApi(page, base, admin.email, admin.password);
    });
    test.afterEach(async () => {
      for (const stop of started.splice(0).reverse()) await stop();
    });

    /** The visitor, in a browser of their own on the customer's site, the chat opened. */
    async function visitorOn(browser: Browser): Promise<FrameLocator> {
      const context = await browser.newContext();
      started.push(() => context.close());
      const visitor = await context.newPage();
      await visitor.goto(host.page(botId));
      await visitor.locator(`[data-omnibot="${botId}"] button`).first().click();
      return chat(visitor, botId);
    }

    test('the agent gets the masked summary, both talk, the agent ends, the bot answers again, the dashboard keeps it all', async ({
      page,
      browser,
    }) => {
      // The administrator adds the contact centre in the console, and picks it in the bot's engines.
      const view = await addContactCentre(page, centre, integration);
      botId = await createBot(page, base, botName, host);
      await pickContactCentre(page, { botId, botName, centre, integration });
      await page.goto(view);
      await expect(page.getByRole('list', { name: 'Bots using this integration' })).toContainText(botName);
      await summariseAtHandover(page, botName, `Ferry summaries ${botName}`);

      // The visitor asks what the bot cannot answer, then for a person.
      const frame = await visitorOn(browser);
      await say(frame, QUESTION);
      await expect(frame.getByText(FALLBACK)).toBeVisible();
      await frame.getByRole('button', { name: 'Talk to an agent' }).first().click();
      await expect(frame.getByText(/^Waiting for an agent…/)).toBeVisible();

      // The contact centre gets the conversation and its summary, both masked by the bot's patterns.
      const agent = await centre.handedOver();
      expect(agent.opening).toContain(MASKED_CARD);
      expect(agent.opening).toContain(FALLBACK);
      expect(defined(agent.summary)).toContain(`My card ${MASKED_CARD} was charged twice`);
      for (const text of [agent.opening, defined(agent.summary)]) {
        expect(text).not.toContain('4111');
        expect(text).not.toContain(EMAIL);
      }

      // Its agent joins by name, types and answers; the visitor answers back.
      agent.join(AGENT);
      await expect(frame.getByText(`${AGENT} joined the conversation.`)).toBeVisible();
      await expect(frame.getByText(`${AGENT} is answering`)).toBeVisible();
      await expect(frame.getByText(/^Waiting for an agent…/)).toHaveCount(0);
      agent.type();
      await expect(frame.getByText(`${AGENT} is typing…`)).toBeVisible();
      agent.say('Sorry about that! I have refunded the second charge.');
      await expect(frame.getByText('Sorry about that! I have refunded the second charge.')).toBeVisible();
      await expect(frame.getByText(`${AGENT} is typing…`)).toHaveCount(0);
      await say(frame, 'Thank you, that was quick.');
      await expect
        .poll(() => agent.visitorTexts(), { timeout: 30_000 })
        .toEqual(['Thank you, that was quick.']);

      // The agent ends it: the visitor reads so, and the bot answers again.
      agent.end();
      await expect(frame.getByText(`${AGENT} ended the conversation. The bot answers again.`)).toBeVisible();
      await say(frame, 'Which pier does the evening ferry leave from?');
      await expect(frame.getByText(FALLBACK)).toHaveCount(2);
      expect(agent.visitorTexts()).toEqual(['Thank you, that was quick.']);

      // The bot's dashboard keeps the transcript, the agent's messages by name, and the summary, all masked.
      await page.goto(`/bot/dashboard?bot=${botId}`);
      await page
        .getByRole('button', { name: /^Open the transcript: My card/ })
        .first()
        .click();
      const drawer = page.getByRole('dialog', { name: 'Conversation' });
      const summary = drawer.getByRole('region', { name: 'Case summary at hand-over' });
      await expect(summary).toContainText(`My card ${MASKED_CARD} was charged twice`);
      const messages = drawer.getByRole('list', { name: 'Messages' });
      await expect(messages.getByRole('listitem', { name: new RegExp(`^${AGENT},`) })).toContainText(
        'Sorry about that! I have refunded the second charge.',
      );
      await expect(messages).toContainText(`${AGENT} joined the conversation.`);
      await expect(messages).toContainText('Thank you, that was quick.');
      await expect(messages).toContainText(`${AGENT} ended the conversation. The bot answers again.`);
      await expect(messages).toContainText('Which pier does the evening ferry leave from?');
      const html = await page.content();
      expect(html).not.toContain('4111');
      expect(html).not.toContain(EMAIL);
    });

    test(`a contact centre answering ${fault} at the start leaves the visitor with the bot and words saying why`, async ({
      browser,
      page,
    }) => {
      const stored = await api<{ id: string }>(page, base, 'POST', '/v1/integrations', {
        kind: 'ccaas',
        engine: centre.engine,
        name: integration,
        settings: centre.settings,
      });
      botId = await createBot(page, base, botName, host, {
        enableliveagent: true,
        liveagent: centre.engine,
        liveagent_integration_id: stored.id,
      });
      centre.refuseNextStart(fault);
      const frame = await visitorOn(browser);
      await say(frame, 'Can I bring my bicycle on the night ferry?');
      await expect(frame.getByText(FALLBACK)).toBeVisible();
      await frame.getByRole('button', { name: 'Talk to an agent' }).first().click();
      await expect(frame.getByText(words)).toBeVisible();
      await expect(frame.getByText(/^Waiting for an agent…/)).toHaveCount(0);

      // Not stuck: the visitor writes on, and the bot answers.
      const input = frame.getByRole('textbox', { name: 'Message' });
      await expect(input).toBeEditable();
      await say(frame, 'And a dog?');
      await expect(frame.getByText(FALLBACK)).toHaveCount(2);

      // Once the contact centre takes conversations again, the same conversation is handed over.
      centre.recover();
      await frame.getByRole('button', { name: 'Talk to an agent' }).last().click();
      await expect(frame.getByText(/^Waiting for an agent…/)).toBeVisible();
      const agent = await centre.handedOver();
      agent.join(AGENT);
      await expect(frame.getByText(`${AGENT} joined the conversation.`)).toBeVisible();
      agent.end();
      await expect(frame.getByText(`${AGENT} ended the conversation. The bot answers again.`)).toBeVisible();
    });
  });
}
