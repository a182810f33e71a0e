import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_SOURCE, WidgetConfigSchema, publicWidgetConfig } from '@omnibot/contracts';
import { startConfigServer, type ConfigServer } from '../test/config-server';
import { chatStorageKey, notAllowedWarning, startLoader, type OmnibotApi } from './start';

type HostWindow = Window & { Omnibot?: OmnibotApi };
const host = window as HostWindow;

let server: ConfigServer;

beforeAll(async () => {
  server = await startConfigServer({
    plain: {},
    styled: {
      launcher: {
        position: 'left',
        positionPct: 5,
        borderRadius: 10,
        launcherIcon: { url: 'https://cdn.example.com/icon.png', width: 64, height: 48 },
        background: '#ff0000',
        infoText: 'Ask me about orders',
        openText: 'Hide chat',
        closeText: 'Chat with us',
      },
    },
    hidden: { launcher: { enableLauncher: false } },
    sized: { window: { width: 500, height: 600 } },
  });
});

afterAll(() => server.close());

beforeEach(() => sessionStorage.clear());

afterEach(() => {
  document.body.replaceChildren();
  delete host.Omnibot;
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1280 });
});

async function load(bot: string) {
  const script = document.createElement('script');
  script.setAttribute('src', `${server.origin}/widget.js`);
  script.setAttribute('data-bot', bot);
  await startLoader(script, null, host);
  const root = document.querySelector(`[data-omnibot="${bot}"]`)?.shadowRoot;
  if (!root) throw new Error('The loader drew no shadow root.');
  const part = <T extends Element>(selector: string) => root.querySelector<T>(selector);
  return {
    root,
    launcher: () => part<HTMLDivElement>('.l'),
    button: () => part<HTMLButtonElement>('.b'),
    info: () => part<HTMLParagraphElement>('.i'),
    frame: () => document.querySelector<HTMLIFrameElement>(`[data-omnibot-frame="${bot}"]`),
  };
}

function api(): OmnibotApi {
  if (host.Omnibot === undefined) throw new Error('window.Omnibot is not installed.');
  return host.Omnibot;
}

function fromFrame(frame: HTMLIFrameElement, data: unknown, origin = server.origin) {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source: frame.contentWindow }));
}

describe('the loader', () => {
  it("fetches the bot's public configuration from the script's own origin", async () => {
    await load('plain');
    expect(server.requests).toContain('GET /v1/widget/plain/config');
  });

  it('draws the launcher in a shadow root with the configured position, size, shape, image and texts', async () => {
    const widget = await load('styled');
    const launcher = widget.launcher();
    const button = widget.button();
    expect(launcher?.hidden).toBe(false);
    expect(launcher?.style.left).toBe('5%');
    expect(launcher?.style.bottom).toBe('5%');
    expect(launcher?.style.right).toBe('');
    expect(button?.style.width).toBe('64px');
    expect(button?.style.height).toBe('48px');
    expect(button?.style.borderRadius).toBe('10%');
    expect(button?.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.com/icon.png');
    expect(widget.info()?.textContent).toBe('Ask me about orders');
    expect(button?.getAttribute('aria-label')).toBe('Chat with us');
    expect(button?.getAttribute('aria-expanded')).toBe('false');
    expect(document.body.querySelector('button')).toBeNull();
  });

  it('defaults to the right side with the built-in icon, and opens and closes the chat on click', async () => {
    const widget = await load('plain');
    expect(widget.launcher()?.style.right).toBe('2%');
    expect(widget.button()?.querySelector('svg')).not.toBeNull();
    expect(widget.frame()).toBeNull();
    widget.button()?.click();
    const frame = widget.frame();
    expect(frame?.getAttribute('src')).toBe(
      `${server.origin}/widget/?bot=plain&host=${encodeURIComponent(window.location.origin)}`,
    );
    expect(frame?.style.display).toBe('block');
    expect(widget.info()?.hidden).toBe(true);
    expect(widget.button()?.getAttribute('aria-label')).toBe('Close');
    widget.button()?.click();
    expect(frame?.style.display).toBe('none');
    expect(widget.button()?.getAttribute('aria-label')).toBe('Virtual Assistant');
  });

  it('hides the launcher when enableLauncher is false, while the API still opens the chat', async () => {
    const widget = await load('hidden');
    expect(widget.launcher()?.hidden).toBe(true);
    api()('open');
    expect(widget.frame()?.style.display).toBe('block');
  });

  it('runs the calls queued by the snippet stub, in order, once the configuration is loaded', async () => {
    const opened = vi.fn();
    const stub: OmnibotApi = (...args: unknown[]) => {
      (stub.q ??= []).push(args);
    };
    host.Omnibot = stub;
    stub('on', 'open', opened);
    stub('open');
    const widget = await load('plain');
    expect(opened).toHaveBeenCalledTimes(1);
    expect(widget.frame()?.style.display).toBe('block');
    api()('close');
    expect(widget.frame()?.style.display).toBe('none');
    api()('toggle');
    expect(widget.frame()?.style.display).toBe('block');
    expect(opened).toHaveBeenCalledTimes(2);
  });

  it('opens the chat at 450 x 750 px and full screen under 768 px wide', async () => {
    const widget = await load('plain');
    api()('open');
    const frame = widget.frame();
    expect(frame?.style.width).toBe('450px');
    expect(frame?.style.height).toBe('750px');
    expect(frame?.hasAttribute('data-full')).toBe(false);
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 767 });
    window.dispatchEvent(new Event('resize'));
    expect(frame?.style.width).toBe('100%');
    expect(frame?.style.height).toBe('100%');
    expect(frame?.hasAttribute('data-full')).toBe(true);
  });

  it('uses the configured window size', async () => {
    const widget = await load('sized');
    api()('open');
    expect(widget.frame()?.style.width).toBe('500px');
    expect(widget.frame()?.style.height).toBe('600px');
  });

  it('ignores messages from another origin and takes valid ones from the chat frame', async () => {
    const widget = await load('plain');
    const received = vi.fn();
    const closed = vi.fn();
    api()('on', 'message', received);
    api()('on', 'close', closed);
    api()('open');
    const frame = widget.frame();
    if (!frame) throw new Error('no frame');
    const message = { source: PROTOCOL_SOURCE, type: 'message', role: 'bot', text: 'Hello' };
    fromFrame(frame, message, 'https://evil.example');
    fromFrame(frame, { source: PROTOCOL_SOURCE, type: 'close' }, 'https://evil.example');
    window.dispatchEvent(
      new MessageEvent('message', { data: message, origin: server.origin, source: window }),
    );
    expect(received).not.toHaveBeenCalled();
    expect(closed).not.toHaveBeenCalled();
    expect(frame.style.display).toBe('block');
    fromFrame(frame, { ...message, extra: 1 });
    expect(received).not.toHaveBeenCalled();
    fromFrame(frame, message);
    expect(received).toHaveBeenCalledWith({ role: 'bot', text: 'Hello' });
    fromFrame(frame, { source: PROTOCOL_SOURCE, type: 'close' });
    expect(closed).toHaveBeenCalledTimes(1);
    expect(frame.style.display).toBe('none');
  });

  it('tells the host page about a hand-over and closes when the chat asks (Esc or its close button)', async () => {
    const widget = await load('plain');
    const handover = vi.fn();
    const closed = vi.fn();
    api()('on', 'handover', handover);
    api()('on', 'close', closed);
    api()('on', 'unknown-event', handover);
    api()('open');
    const frame = widget.frame();
    if (!frame) throw new Error('no frame');
    fromFrame(frame, { source: PROTOCOL_SOURCE, type: 'handover' });
    expect(handover).toHaveBeenCalledTimes(1);
    fromFrame(frame, { source: PROTOCOL_SOURCE, type: 'close' });
    expect(closed).toHaveBeenCalledTimes(1);
    expect(frame.style.display).toBe('none');
    expect(widget.root.activeElement).toBe(widget.button());
  });

  it('holds send and setLanguage until the frame is ready, then posts them to the server origin only', async () => {
    const widget = await load('plain');
    api()('send', 'Where is my order?');
    api()('setLanguage', 'fr');
    const frame = widget.frame();
    const target = frame?.contentWindow;
    if (!frame || !target) throw new Error('no frame window');
    const posted = vi.spyOn(target, 'postMessage');
    expect(posted).not.toHaveBeenCalled();
    fromFrame(frame, { source: PROTOCOL_SOURCE, type: 'ready' });
    expect(posted.mock.calls).toEqual([
      [{ source: PROTOCOL_SOURCE, type: 'opened' }, server.origin],
      [{ source: PROTOCOL_SOURCE, type: 'send', text: 'Where is my order?' }, server.origin],
      [{ source: PROTOCOL_SOURCE, type: 'setLanguage', language: 'fr' }, server.origin],
    ]);
  });

  it('draws nothing for an unknown bot or a script without data-bot', async () => {
    await expect(load('unknown')).rejects.toThrow('no shadow root');
    delete host.Omnibot;
    const script = document.createElement('script');
    script.setAttribute('src', `${server.origin}/widget.js`);
    await startLoader(script, null, host);
    expect(host.Omnibot).toBeUndefined();
  });

  it('draws nothing and throws nothing when the server cannot be reached', async () => {
    const script = document.createElement('script');
    script.setAttribute('src', 'http://127.0.0.1:9/widget.js');
    script.setAttribute('data-bot', 'plain');
    await expect(startLoader(script, null, host)).resolves.toBeUndefined();
    expect(document.querySelector('[data-omnibot]')).toBeNull();
  });

  it('draws the launcher at once from boot data for its bot, with no configuration request', () => {
    const script = document.createElement('script');
    script.setAttribute('src', `${server.origin}/widget.js?bot=booted`);
    script.setAttribute('data-bot', 'booted');
    const config = publicWidgetConfig(
      WidgetConfigSchema.parse({ launcher: { closeText: 'Booted', position: 'left' } }),
    );
    const before = server.requests.length;
    void startLoader(script, { botId: 'booted', config, allowedOrigins: [window.location.origin] }, host);
    // Synchronously: nothing was awaited before drawing.
    const button = document.querySelector('[data-omnibot="booted"]')?.shadowRoot?.querySelector('.b');
    expect(button?.getAttribute('aria-label')).toBe('Booted');
    expect(server.requests.length).toBe(before);
    api()('open');
    expect(document.querySelector('[data-omnibot-frame="booted"]')).not.toBeNull();
  });

  it('takes the bot from the script URL when data-bot is absent', async () => {
    const script = document.createElement('script');
    script.setAttribute('src', `${server.origin}/widget.js?bot=plain`);
    await startLoader(script, null, host);
    expect(document.querySelector('[data-omnibot="plain"]')).not.toBeNull();
  });

  it('ignores boot data written for another bot and fetches the configuration of data-bot', async () => {
    const script = document.createElement('script');
    script.setAttribute('src', `${server.origin}/widget.js`);
    script.setAttribute('data-bot', 'styled');
    const other = publicWidgetConfig(WidgetConfigSchema.parse({ launcher: { closeText: 'Other bot' } }));
    await startLoader(script, { botId: 'plain', config: other, allowedOrigins: [] }, host);
    const button = document.querySelector('[data-omnibot="styled"]')?.shadowRoot?.querySelector('.b');
    expect(button?.getAttribute('aria-label')).toBe('Chat with us');
    expect(server.requests).toContain('GET /v1/widget/styled/config');
  });

  it('on a page the bot does not allow, draws nothing, says why once in the console and names the site', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const script = document.createElement('script');
    script.setAttribute('src', `${server.origin}/widget.js?bot=plain`);
    const config = publicWidgetConfig(WidgetConfigSchema.parse({}));
    const before = server.requests.length;
    await startLoader(script, { botId: 'plain', config, allowedOrigins: ['https://shop.example'] }, host);
    expect(document.querySelector('[data-omnibot]')).toBeNull();
    expect(document.querySelector('iframe')).toBeNull();
    expect(warn.mock.calls).toEqual([[notAllowedWarning(window.location.origin)]]);
    await vi.waitFor(() =>
      expect(server.requests.slice(before)).toEqual(['POST /v1/widget/plain/sightings']),
    );
  });

  it('draws nothing on an allowed page framed by a page the bot does not allow (frame-ancestors checks both)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const framed = { origin: window.location.origin, ancestorOrigins: ['https://framer.example'] };
    // The host window as seen from a page inside another site's frame.
    const inFrame = new Proxy(host, {
      get: (target, key) => {
        if (key === 'location') return framed;
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
      set: (target, key, value) => Reflect.set(target, key, value),
    });
    const script = document.createElement('script');
    script.setAttribute('src', `${server.origin}/widget.js?bot=plain`);
    const config = publicWidgetConfig(WidgetConfigSchema.parse({}));
    await startLoader(script, { botId: 'plain', config, allowedOrigins: [window.location.origin] }, inFrame);
    expect(document.querySelector('[data-omnibot]')).toBeNull();
    expect(warn.mock.calls).toEqual([[notAllowedWarning('https://framer.example')]]);
  });
});

describe('the loader and the chat frame', () => {
  const config = publicWidgetConfig(
    WidgetConfigSchema.parse({ identity: { botName: 'Ada' }, behaviour: { sessionStorage: true } }),
  );
  const boot = { botId: 'kept', config, allowedOrigins: [window.location.origin] };

  function start() {
    const script = document.createElement('script');
    script.setAttribute('src', `${server.origin}/widget.js?bot=kept`);
    void startLoader(script, boot, host);
    const root = document.querySelector('[data-omnibot="kept"]')?.shadowRoot;
    const button = root?.querySelector<HTMLButtonElement>('.b');
    if (!button) throw new Error('no launcher');
    const frame = () => document.querySelector<HTMLIFrameElement>('[data-omnibot-frame="kept"]');
    return { button, frame };
  }

  function openFrame(button: HTMLButtonElement, frame: () => HTMLIFrameElement | null) {
    button.click();
    const element = frame();
    const target = element?.contentWindow;
    if (!element || !target) throw new Error('no frame window');
    return { element, posted: vi.spyOn(target, 'postMessage') };
  }

  it('answers hello with the configuration it holds and the conversation kept in the host page storage', () => {
    sessionStorage.setItem(chatStorageKey('kept'), '{"conversationToken":"c1.old"}');
    const { button, frame } = start();
    const { element, posted } = openFrame(button, frame);
    fromFrame(element, { source: PROTOCOL_SOURCE, type: 'hello' });
    expect(posted.mock.calls).toEqual([
      [
        { source: PROTOCOL_SOURCE, type: 'init', config, chat: '{"conversationToken":"c1.old"}' },
        server.origin,
      ],
    ]);
    // The frame hands over a new conversation to keep for the next page load.
    fromFrame(element, { source: PROTOCOL_SOURCE, type: 'store', chat: '{"conversationToken":"c1.new"}' });
    expect(sessionStorage.getItem(chatStorageKey('kept'))).toBe('{"conversationToken":"c1.new"}');
    fromFrame(element, { source: PROTOCOL_SOURCE, type: 'store', chat: 'not a conversation' });
    expect(sessionStorage.getItem(chatStorageKey('kept'))).toBe('{"conversationToken":"c1.new"}');
  });

  it('keeps the conversation in memory where the page refuses storage, and says so once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(host, 'sessionStorage', 'get').mockImplementation(() => {
      throw new DOMException("Failed to read the 'sessionStorage' property", 'SecurityError');
    });
    const { button, frame } = start();
    const { element, posted } = openFrame(button, frame);
    fromFrame(element, { source: PROTOCOL_SOURCE, type: 'store', chat: '{"conversationToken":"c1.x"}' });
    fromFrame(element, { source: PROTOCOL_SOURCE, type: 'hello' });
    expect(posted.mock.calls[0]?.[0]).toMatchObject({ type: 'init', chat: '{"conversationToken":"c1.x"}' });
    expect(warn.mock.calls).toEqual([
      [
        "Omnibot: sessionStorage refused (Failed to read the 'sessionStorage' property); the conversation lasts until the page is left.",
      ],
    ]);
  });

  it('makes the frame hidden ahead of the first open when the pointer reaches the launcher, or the page is idle', () => {
    const { button, frame } = start();
    expect(frame()).toBeNull();
    button.dispatchEvent(new Event('pointerenter'));
    expect(frame()?.style.display).toBe('none');
    button.click();
    expect(frame()?.style.display).toBe('block');

    document.body.replaceChildren();
    const idle: (() => void)[] = [];
    host.requestIdleCallback = (callback: IdleRequestCallback) =>
      idle.push(() => callback({} as IdleDeadline));
    try {
      const again = start();
      expect(again.frame()).toBeNull();
      idle.forEach((run) => run());
      expect(again.frame()?.style.display).toBe('none');
    } finally {
      delete (host as Partial<Window>).requestIdleCallback;
    }
  });

  it('closes the chat on Esc in the host page', () => {
    const { button, frame } = start();
    button.click();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(frame()?.style.display).toBe('none');
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });
});
