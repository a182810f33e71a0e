import {
  PROTOCOL_SOURCE,
  parseFrameMessage,
  storageWarning,
  type HostToFrameMessage,
  type PublicWidgetConfig,
} from '@omnibot/contracts';
import type { LoaderBoot } from './boot';

/** Below this viewport width the chat window covers the whole screen. */
const FULL_SCREEN_BELOW_PX = 768;

const WIDGET_EVENTS = ['open', 'close', 'message', 'handover'] as const;
type WidgetEvent = (typeof WIDGET_EVENTS)[number];

type Listener = (detail?: unknown) => void;

/** `window.Omnibot`: the host page's API; before the loader runs, the snippet's stub collects calls in `q`. */
export interface OmnibotApi {
  (command: string, ...args: unknown[]): void;
  q?: ArrayLike<unknown>[];
}

type HostWindow = Window & { Omnibot?: OmnibotApi };

/** The key of a bot's conversation in the host page's sessionStorage. */
export const chatStorageKey = (botId: string) => `omnibot:chat:${botId}`;

/** What the loader says in the console when the page's origin (or a page framing it) may not embed the bot. */
export const notAllowedWarning = (origin: string) =>
  `Omnibot: this bot is not allowed on ${origin}; add it to the bot's allowed origins (Install) to show the chat here.`;

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" width="60%" height="60%" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.4A8 8 0 1 1 21 12z"/></svg>';

const STYLE =
  ':host{all:initial}' +
  '.l{position:fixed;z-index:2147483000;display:flex;flex-direction:column;gap:8px;font:14px/1.4 system-ui,sans-serif}' +
  '[hidden]{display:none!important}' +
  '.b{display:flex;align-items:center;justify-content:center;padding:0;border:0;cursor:pointer;overflow:hidden;color:#fff;box-shadow:0 2px 12px #0004}' +
  '.b:focus-visible{outline:3px solid #4dabf7;outline-offset:2px}' +
  '.b img{width:100%;height:100%;object-fit:cover}' +
  '.i{margin:0;max-width:240px;padding:8px 12px;border-radius:12px;background:#fff;color:#1a1b1e;box-shadow:0 2px 12px #0003}';

/**
 * The script's bot id (data-bot, else the `bot` of its URL) and the origin it was served from (the server the chat
 * app and config come from).
 */
function scriptTarget(script: Element | null, baseUrl: string): { botId: string; origin: string } | null {
  const src = script?.getAttribute('src') ?? '';
  if (!URL.canParse(src, baseUrl)) return null;
  const url = new URL(src, baseUrl);
  const botId = script?.getAttribute('data-bot') || url.searchParams.get('bot') || '';
  return botId === '' ? null : { botId, origin: url.origin };
}

/**
 * Reads the bot from the loader's script tag, takes its public configuration from the boot data the server
 * embedded (drawing at once) or else fetches it, draws the launcher in a shadow root and replaces
 * `window.Omnibot` with the real API (running the calls the stub queued, in order).
 */
export async function startLoader(
  script: Element | null,
  boot: LoaderBoot | null = null,
  win: HostWindow = window,
): Promise<void> {
  const doc = win.document;
  const target = scriptTarget(script, doc.baseURI);
  if (target === null) return;
  const { botId, origin } = target;
  const pending: unknown[][] = Array.from(win.Omnibot?.q ?? [], (args) => Array.from(args));
  const listeners: Partial<Record<WidgetEvent, Listener[]>> = {};
  let config: PublicWidgetConfig | null = null;
  let frame: HTMLIFrameElement | null = null;
  let frameReady = false;
  let outbox: HostToFrameMessage[] = [];
  let isOpen = false;

  const api: OmnibotApi = (command, ...args) => {
    if (config === null) pending.push([command, ...args]);
    else run(command, args);
  };
  win.Omnibot = api;

  // The chat page may be framed only by the bot's allowed origins (frame-ancestors, checked for every ancestor), so
  // the loader checks the same before drawing anything: a launcher there would open a broken frame.
  if (boot?.botId === botId) {
    const here = [win.location.origin, ...Array.from(win.location.ancestorOrigins ?? [])];
    const refused = here.find((page) => page !== origin && !boot.allowedOrigins.includes(page));
    if (refused !== undefined) {
      console.warn(notAllowedWarning(refused));
      // Names this site to the bot's owner ("Recently loaded from", with its Allow button).
      void fetch(`${origin}/v1/widget/${encodeURIComponent(botId)}/sightings`, {
        method: 'POST',
        mode: 'no-cors',
        keepalive: true,
      }).catch(() => undefined);
      return;
    }
  }
  // Without boot data the configuration answers a listed origin only (CORS): an unknown or disabled bot, a site that
  // is not allowed or an unreachable server draws nothing (the browser names the refused request in the console).
  const loaded =
    boot?.botId === botId
      ? boot.config
      : await fetch(`${origin}/v1/widget/${encodeURIComponent(botId)}/config`).then(
          (response) => (response.ok ? (response.json() as Promise<PublicWidgetConfig>) : null),
          () => null,
        );
  if (loaded === null) return;

  const host = doc.createElement('div');
  host.setAttribute('data-omnibot', botId);
  const root = host.attachShadow({ mode: 'open' });
  const style = doc.createElement('style');
  style.textContent = STYLE;
  const launcher = doc.createElement('div');
  launcher.className = 'l';
  const info = doc.createElement('p');
  info.className = 'i';
  const button = doc.createElement('button');
  button.className = 'b';
  button.type = 'button';
  launcher.append(info, button);
  root.append(style, launcher);
  doc.body.append(host);

  const { launcher: settings, window: size, appearance, identity, behaviour } = loaded;
  const dark =
    appearance.colorScheme === 'dark' ||
    (appearance.colorScheme === 'auto' && win.matchMedia?.('(prefers-color-scheme: dark)').matches === true);
  const offset = `${settings.positionPct}%`;
  launcher.hidden = !settings.enableLauncher;
  launcher.style.setProperty(settings.position, offset);
  launcher.style.bottom = offset;
  launcher.style.alignItems = settings.position === 'left' ? 'flex-start' : 'flex-end';
  info.textContent = settings.infoText;
  info.hidden = settings.infoText === '';
  button.style.width = `${settings.launcherIcon.width}px`;
  button.style.height = `${settings.launcherIcon.height}px`;
  button.style.borderRadius = `${settings.borderRadius}%`;
  button.style.background = settings.background;
  const image =
    (dark && settings.launcherIcon.urlDark) ||
    settings.launcherIcon.url ||
    (dark && settings.logoDark) ||
    settings.logo;
  if (image) {
    const img = doc.createElement('img');
    img.src = image;
    img.alt = '';
    button.append(img);
  } else {
    button.innerHTML = CHAT_ICON;
  }

  const label = () => {
    const text = isOpen ? settings.openText : settings.closeText;
    button.setAttribute('aria-label', text);
    button.title = text;
    button.setAttribute('aria-expanded', String(isOpen));
  };

  const emit = (event: WidgetEvent, detail?: unknown) => {
    for (const listener of listeners[event] ?? []) listener(detail);
  };

  const post = (message: HostToFrameMessage) => {
    if (frameReady && frame?.contentWindow) frame.contentWindow.postMessage(message, origin);
    else outbox.push(message);
  };

  // The frame lives in the page's own DOM (a frame inside a shadow root gets no window in every engine), so each
  // of its styles is set inline and !important: host-page CSS cannot resize, hide or restyle it.
  const css = (element: HTMLElement, styles: Record<string, string>) => {
    for (const [name, value] of Object.entries(styles)) element.style.setProperty(name, value, 'important');
  };

  const layout = () => {
    if (frame === null) return;
    const full = win.innerWidth < FULL_SCREEN_BELOW_PX;
    const side = settings.position === 'left' ? 'right' : 'left';
    css(frame, {
      position: 'fixed',
      'z-index': '2147483001',
      border: '0',
      background: '#fff',
      'box-shadow': '0 4px 24px #0004',
      'border-radius': full ? '0' : '12px',
      width: full ? '100%' : `${size.width}px`,
      height: full ? '100%' : `${size.height}px`,
      'max-height': full ? '100%' : `calc(100vh - ${settings.launcherIcon.height + 24}px)`,
      top: full ? '0' : 'auto',
      bottom: full ? '0' : `calc(${offset} + ${settings.launcherIcon.height + 12}px)`,
      [settings.position]: full ? '0' : offset,
      [side]: full ? '0' : 'auto',
    });
    frame.toggleAttribute('data-full', full);
  };

  // The conversation lives in the host page's storage: a cross-site frame gets none of its own. Where the page's
  // storage is refused too, it is kept in memory (for this page only) and the console says so once.
  let kept: string | null = null;
  let storageWarned = false;
  const storage = (act: (store: Storage) => string | null | void) => {
    try {
      return act(win.sessionStorage);
    } catch (error) {
      if (!storageWarned) console.warn(storageWarning((error as Error).message));
      storageWarned = true;
    }
  };
  if (behaviour.sessionStorage) kept = storage((store) => store.getItem(chatStorageKey(botId))) ?? null;

  // Made hidden ahead of the first open (while the page is idle, or when the pointer or focus reaches the
  // launcher), so opening only shows it.
  const warm = () => {
    if (frame !== null) return;
    frame = doc.createElement('iframe');
    frame.setAttribute('data-omnibot-frame', botId);
    frame.title = identity.botName;
    frame.allow = 'microphone; autoplay';
    frame.src = `${origin}/widget/?bot=${encodeURIComponent(botId)}&host=${encodeURIComponent(win.location.origin)}`;
    css(frame, { display: 'none' });
    doc.body.append(frame);
    win.addEventListener('resize', layout);
  };

  const open = () => {
    warm();
    if (frame === null) return;
    layout();
    css(frame, { display: 'block' });
    info.hidden = true;
    if (!isOpen) {
      isOpen = true;
      label();
      post({ source: PROTOCOL_SOURCE, type: 'opened' });
      emit('open');
    }
  };

  const close = () => {
    if (frame === null || !isOpen) return;
    css(frame, { display: 'none' });
    isOpen = false;
    label();
    if (settings.enableLauncher) button.focus();
    emit('close');
  };

  const run = (command: string, args: unknown[]) => {
    const [first, second] = args;
    if (command === 'open') open();
    else if (command === 'close') close();
    else if (command === 'toggle') {
      if (isOpen) close();
      else open();
    } else if (command === 'send' && typeof first === 'string' && first.trim() !== '') {
      open();
      post({ source: PROTOCOL_SOURCE, type: 'send', text: first });
    } else if (command === 'setLanguage' && typeof first === 'string') {
      post({ source: PROTOCOL_SOURCE, type: 'setLanguage', language: first });
    } else if (
      command === 'on' &&
      (WIDGET_EVENTS as readonly unknown[]).includes(first) &&
      typeof second === 'function'
    ) {
      (listeners[first as WidgetEvent] ??= []).push(second as Listener);
    }
  };

  win.addEventListener('message', (event: MessageEvent) => {
    const source = frame?.contentWindow;
    if (!source || event.origin !== origin || event.source !== source) return;
    const message = parseFrameMessage(event.data);
    if (message === null) return;
    if (message.type === 'hello') {
      const init: HostToFrameMessage = { source: PROTOCOL_SOURCE, type: 'init', config: loaded, chat: kept };
      source.postMessage(init, origin);
    } else if (message.type === 'ready') {
      frameReady = true;
      const waiting = outbox;
      outbox = [];
      waiting.forEach(post);
    } else if (message.type === 'store') {
      if (behaviour.sessionStorage) {
        kept = message.chat;
        storage((store) => store.setItem(chatStorageKey(botId), message.chat));
      }
    } else if (message.type === 'close') close();
    else if (message.type === 'message') emit('message', { role: message.role, text: message.text });
    else emit('handover');
  });

  button.addEventListener('click', () => (isOpen ? close() : open()));
  button.addEventListener('pointerenter', warm);
  button.addEventListener('focus', warm);
  // Not once the page took the launcher away.
  win.requestIdleCallback?.(() => {
    if (host.isConnected) warm();
  });
  // Esc closes the window from the host page too (the chat handles it while the focus is inside).
  doc.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isOpen) close();
  });
  label();
  config = loaded;
  for (const [command, ...args] of pending) {
    if (typeof command === 'string') run(command, args);
  }
}
