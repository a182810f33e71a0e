import { WidgetConfigSchema, publicWidgetConfig, type PublicWidgetConfig } from '@omnibot/contracts';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWidgetServer, type WidgetServer } from '../test/widget-server';
import { XSS_PAYLOADS } from '../test/xss-payloads';
import { Chat } from './chat';

const FORBIDDEN_TAGS = new Set([
  'SCRIPT',
  'IFRAME',
  'FRAME',
  'OBJECT',
  'EMBED',
  'STYLE',
  'LINK',
  'META',
  'BASE',
]);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'xlink:href',
  'action',
  'formaction',
  'srcdoc',
  'data',
  'poster',
]);

/** No element that runs or loads code, no event-handler attribute, and only safe URLs. */
function expectInert(root: Element) {
  for (const element of root.querySelectorAll('*')) {
    expect(FORBIDDEN_TAGS.has(element.tagName.toUpperCase()), element.outerHTML).toBe(false);
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase();
      expect(name.startsWith('on'), element.outerHTML).toBe(false);
      if (!URL_ATTRIBUTES.has(name)) continue;
      expect(['href', 'src'], element.outerHTML).toContain(name);
      const protocol = new URL(attribute.value).protocol;
      const allowed = name === 'src' ? ['http:', 'https:'] : ['http:', 'https:', 'mailto:', 'tel:'];
      expect(allowed, element.outerHTML).toContain(protocol);
    }
  }
  expect((window as unknown as { __xss?: unknown }).__xss).toBeUndefined();
}

/** A configuration with the payload in every text and URL the chat draws (as a console preview might send it). */
function hostile(payload: string): PublicWidgetConfig {
  const config = publicWidgetConfig(WidgetConfigSchema.parse({}), { translate: true, tts: false });
  const item = { label: payload, text: payload };
  return {
    ...config,
    identity: { ...config.identity, botName: payload, description: payload, avatarUri: payload },
    welcome: {
      ...config.welcome,
      welcomeText: payload,
      welcomeText_enabled: true,
      welcomeMenu: [item],
      popupMenu: [item],
      enablePopupMenu: true,
      start_suggestions: [payload],
    },
    behaviour: { ...config.behaviour, microphone_enabled: true, speaker_enabled: true, msgRecvTone: payload },
    language: { ...config.language, autoTranslate: true },
    liveAgent: { enabled: true, offlineText: null },
    feedback: {
      ...config.feedback,
      button1Text: payload,
      button2Text: payload,
      button3Text: payload,
      disclaimer: payload,
    },
    titles: {
      ...config.titles,
      inputTitle: payload,
      sendTitle: payload,
      muteTitle: payload,
      unMuteTitle: payload,
      microphoneTitle: payload,
      recognitionUnavailable: payload,
    },
    launcher: { ...config.launcher, openText: payload },
  };
}

let server: WidgetServer;
beforeAll(async () => {
  server = await startWidgetServer({});
});
afterAll(() => server.close());
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('hostile texts never become markup', () => {
  it.each(XSS_PAYLOADS.map((payload) => [payload]))(
    'configuration texts, visitor text, bot answer and sources: %j',
    async (payload) => {
      const botId = crypto.randomUUID();
      server.bots[botId] = {
        config: {},
        answers: [
          {
            kind: 'answer',
            deltas: [payload],
            messages: [payload],
            sources: [{ n: 1, title: payload, url: payload }],
            handoverOffered: true,
            chunkBytes: 64,
          },
        ],
      };
      const { container } = render(
        <Chat apiBase={server.origin} botId={botId} hostOrigin={null} config={hostile(payload)} />,
      );
      expect(screen.getByRole('heading').textContent).toBe(payload);
      fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
      fireEvent.change(screen.getByRole('textbox'), { target: { value: payload } });
      fireEvent.submit(screen.getByRole('textbox').closest('form') as HTMLFormElement);
      const log = within(screen.getByRole('log'));
      const ratings = within(await log.findByRole('group', { name: 'Rate this answer' }));
      // Rating opens the comment box with the disclaimer, one more configuration text.
      fireEvent.click(ratings.getAllByRole('button')[0] as HTMLElement);
      await screen.findByRole('textbox', { name: 'Comment (optional)' });
      expectInert(container);
      expect(document.head.querySelector('script, meta[http-equiv], base')).toBeNull();
    },
  );
});
