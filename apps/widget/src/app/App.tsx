import {
  PROTOCOL_SOURCE,
  parseHostMessage,
  parsePreviewMessage,
  type PublicWidgetConfig,
} from '@omnibot/contracts';
import { useEffect, useState } from 'react';
import { fetchConfig } from './api';
import { TranslatedChat } from './translated-texts';

interface AppProps {
  /** The server the config and answers come from (the iframe's own origin in production). */
  apiBase: string;
  botId: string;
  /**
   * The embedding page's origin: the only window messages are taken from and posted to; null outside a frame. With
   * it the loader there hands over the configuration and the kept conversation.
   */
  hostOrigin: string | null;
  /** The console's live preview (`?preview=1`): the configuration comes from the same-origin parent. */
  preview?: boolean;
}

type Load =
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'ready'; config: PublicWidgetConfig; colorScheme?: 'light' | 'dark'; savedChat?: string | null };

/**
 * Shows the chat with the bot's configuration: the one the loader holds when embedded (asked for with `hello`, no
 * request), else fetched (or, in preview, taken from the console).
 */
export function App({ apiBase, botId, hostOrigin, preview = false }: AppProps) {
  const [load, setLoad] = useState<Load>(() =>
    botId === '' && !preview ? { state: 'failed' } : { state: 'loading' },
  );
  const embedded = !preview && hostOrigin !== null;

  useEffect(() => {
    if (!embedded || botId === '') return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== hostOrigin || event.source !== window.parent) return;
      const message = parseHostMessage(event.data);
      if (message?.type === 'init')
        setLoad((now) =>
          now.state === 'ready' ? now : { state: 'ready', config: message.config, savedChat: message.chat },
        );
    };
    window.addEventListener('message', onMessage);
    window.parent.postMessage({ source: PROTOCOL_SOURCE, type: 'hello' }, hostOrigin);
    return () => window.removeEventListener('message', onMessage);
  }, [embedded, botId, hostOrigin]);

  useEffect(() => {
    if (botId === '' || embedded) return;
    let current = true;
    fetchConfig(apiBase, botId).then(
      // A configuration the console already posted is newer than the saved one.
      (config) =>
        current && setLoad((now) => (now.state === 'ready' && preview ? now : { state: 'ready', config })),
      () => current && setLoad((now) => (now.state === 'ready' ? now : { state: 'failed' })),
    );
    return () => {
      current = false;
    };
  }, [apiBase, botId, preview, embedded]);

  useEffect(() => {
    if (!preview) return;
    const own = window.location.origin;
    const onMessage = (event: MessageEvent) => {
      // Only the console page that embeds this preview, on our own origin, may restyle it.
      if (event.source !== window.parent || event.origin !== own) return;
      const message = parsePreviewMessage(event.data);
      if (message !== null)
        setLoad({ state: 'ready', config: message.config, colorScheme: message.colorScheme });
    };
    window.addEventListener('message', onMessage);
    window.parent.postMessage({ source: PROTOCOL_SOURCE, type: 'ready' }, own);
    return () => window.removeEventListener('message', onMessage);
  }, [preview]);

  if (load.state === 'loading') return <div className="ob-status" aria-busy="true" />;
  if (load.state === 'failed')
    return (
      <p className="ob-status" role="alert">
        This assistant is not available right now. Please try again later.
      </p>
    );
  const { language, behaviour } = load.config;
  return (
    <TranslatedChat
      // Settings the chat only reads when it starts (language, muted) restart the preview when they change.
      key={preview ? `${language.default_language}:${String(behaviour.muted)}` : botId}
      apiBase={apiBase}
      botId={botId}
      hostOrigin={preview ? null : hostOrigin}
      config={load.config}
      savedChat={load.savedChat ?? null}
      preview={preview}
      colorScheme={load.colorScheme}
    />
  );
}
