import type { PublicWidgetConfig } from '@omnibot/contracts';
import { useCallback, useEffect, useRef, useState, type CSSProperties, type FormEvent } from 'react';
import { MESSAGE_TEXT_MAX, PROTOCOL_SOURCE, parseHostMessage, type FrameToHostMessage } from '../protocol';
import { fetchConfig, sendMessage, type IntentSource } from './api';
import { Markdown } from './markdown';

export interface ChatMessage {
  id: number;
  role: 'user' | 'bot';
  text: string;
  status: 'sending' | 'sent' | 'failed';
  sources: IntentSource[];
}

export interface AppProps {
  /** The server the config and answers come from (the iframe's own origin in production). */
  apiBase: string;
  botId: string;
  /** The embedding page's origin: the only window messages are taken from and posted to; null outside a frame. */
  hostOrigin: string | null;
}

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; config: PublicWidgetConfig };

function usePrefersDark(): boolean {
  const query =
    typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  const [dark, setDark] = useState(query?.matches === true);
  useEffect(() => {
    if (query === null) return;
    const update = () => setDark(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, [query]);
  return dark;
}

function themeOf(config: PublicWidgetConfig, dark: boolean): CSSProperties {
  const { appearance, launcher } = config;
  const pick = (colours: { backgroundColor: string; backgroundColorDark: string }) =>
    dark ? colours.backgroundColorDark : colours.backgroundColor;
  const ink = (colours: { textColor: string; textColorDark: string }) =>
    dark ? colours.textColorDark : colours.textColor;
  return {
    '--ob-bg': pick(appearance),
    '--ob-fg': dark ? '#f1f3f5' : '#1a1b1e',
    '--ob-user-bg': pick(appearance.userBubble),
    '--ob-user-fg': ink(appearance.userBubble),
    '--ob-bot-bg': pick(appearance.botBubble),
    '--ob-bot-fg': ink(appearance.botBubble),
    '--ob-button-bg': pick(appearance.button),
    '--ob-button-fg': ink(appearance.button),
    '--ob-link': dark ? appearance.button.linkColorDark : appearance.button.linkColor,
    '--ob-font': appearance.bubble.fontFamily,
    '--ob-font-size': appearance.bubble.fontSize,
    '--ob-header-bg': launcher.background,
    '--ob-header-fg': launcher.headerColor,
    '--ob-header-font': launcher.headerFontFamily,
    colorScheme: dark ? 'dark' : 'light',
  } as CSSProperties;
}

/** The chat window inside the widget's iframe. */
export function App({ apiBase, botId, hostOrigin }: AppProps) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    fetchConfig(apiBase, botId).then(
      (config) => current && setLoad({ state: 'ready', config }),
      () => current && setLoad({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [apiBase, botId]);

  if (load.state === 'loading') return <div className="ob-status" aria-busy="true" />;
  if (load.state === 'failed')
    return (
      <p className="ob-status" role="alert">
        This assistant is not available right now. Please try again later.
      </p>
    );
  return <Chat apiBase={apiBase} botId={botId} hostOrigin={hostOrigin} config={load.config} />;
}

function Chat({ apiBase, botId, hostOrigin, config }: AppProps & { config: PublicWidgetConfig }) {
  const prefersDark = usePrefersDark();
  const dark =
    config.appearance.colorScheme === 'auto' ? prefersDark : config.appearance.colorScheme === 'dark';
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [muted, setMuted] = useState(config.behaviour.muted);
  const [language, setLanguage] = useState(config.language.default_language);
  const [conversationToken, setConversationToken] = useState<string | undefined>(undefined);
  const nextId = useRef(1);
  const input = useRef<HTMLInputElement>(null);
  const endOfList = useRef<HTMLDivElement>(null);
  const { identity, titles, welcome, launcher } = config;

  const postToHost = useCallback(
    (message: FrameToHostMessage) => {
      if (hostOrigin !== null && window.parent !== window) window.parent.postMessage(message, hostOrigin);
    },
    [hostOrigin],
  );

  const deliver = useCallback(
    async (id: number, text: string) => {
      setMessages((list) =>
        list.map((message) => (message.id === id ? { ...message, status: 'sending' } : message)),
      );
      try {
        const reply = await sendMessage(apiBase, { botId, conversationToken, text, language });
        if (reply.conversationToken !== undefined) setConversationToken(reply.conversationToken);
        const answers: ChatMessage[] = reply.messages.map((answer, index) => ({
          id: nextId.current++,
          role: 'bot',
          text: answer,
          status: 'sent',
          sources: index === reply.messages.length - 1 ? reply.sources : [],
        }));
        setMessages((list) => [
          ...list.map((message) => (message.id === id ? { ...message, status: 'sent' as const } : message)),
          ...answers,
        ]);
        for (const answer of answers)
          postToHost({ source: PROTOCOL_SOURCE, type: 'message', role: 'bot', text: answer.text });
        if (reply.handoverOffered) postToHost({ source: PROTOCOL_SOURCE, type: 'handover' });
      } catch {
        setMessages((list) =>
          list.map((message) => (message.id === id ? { ...message, status: 'failed' } : message)),
        );
      }
    },
    [apiBase, botId, conversationToken, language, postToHost],
  );

  const send = useCallback(
    (raw: string) => {
      const text = raw.trim().slice(0, MESSAGE_TEXT_MAX);
      if (text === '') return;
      const id = nextId.current++;
      setMessages((list) => [...list, { id, role: 'user', text, status: 'sending', sources: [] }]);
      postToHost({ source: PROTOCOL_SOURCE, type: 'message', role: 'user', text });
      void deliver(id, text);
    },
    [deliver, postToHost],
  );

  useEffect(() => {
    if (hostOrigin === null) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== hostOrigin || event.source !== window.parent) return;
      const message = parseHostMessage(event.data);
      if (message === null) return;
      if (message.type === 'send') send(message.text);
      else if (message.type === 'setLanguage') setLanguage(message.language);
      else input.current?.focus();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [hostOrigin, send]);

  useEffect(() => {
    postToHost({ source: PROTOCOL_SOURCE, type: 'ready' });
  }, [postToHost]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') postToHost({ source: PROTOCOL_SOURCE, type: 'close' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [postToHost]);

  useEffect(() => {
    endOfList.current?.scrollIntoView?.({ block: 'end' });
  }, [messages]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(draft);
    setDraft('');
  };

  const showSuggestions =
    welcome.start_suggestions.length > 0 && !messages.some((message) => message.role === 'user');

  return (
    <div className="ob-chat" style={themeOf(config, dark)} lang={language}>
      <header className="ob-header">
        {identity.avatarUri !== '' ? (
          <img className="ob-avatar" src={identity.avatarUri} alt="" />
        ) : (
          <span className="ob-avatar" aria-hidden="true">
            {identity.botName.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="ob-title">
          <h1>{identity.botName}</h1>
          {identity.description !== '' && <p>{identity.description}</p>}
        </div>
        <button
          type="button"
          className="ob-icon-button"
          aria-pressed={muted}
          aria-label={muted ? titles.unMuteTitle : titles.muteTitle}
          title={muted ? titles.unMuteTitle : titles.muteTitle}
          onClick={() => setMuted((value) => !value)}
        >
          <svg
            viewBox="0 0 24 24"
            width="20"
            height="20"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            <path d="M11 5 6 9H2v6h4l5 4z" />
            {muted ? (
              <path d="m22 9-6 6m0-6 6 6" />
            ) : (
              <path d="M15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14" />
            )}
          </svg>
        </button>
        <button
          type="button"
          className="ob-icon-button"
          aria-label={launcher.openText || 'Close'}
          title={launcher.openText || 'Close'}
          onClick={() => postToHost({ source: PROTOCOL_SOURCE, type: 'close' })}
        >
          <svg
            viewBox="0 0 24 24"
            width="20"
            height="20"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            <path d="M6 6l12 12M18 6 6 18" />
          </svg>
        </button>
      </header>
      <div className="ob-messages" role="log" aria-live="polite" aria-relevant="additions">
        {welcome.welcomeText_enabled && welcome.welcomeText !== '' && (
          <div className="ob-message ob-bot">
            <Markdown text={welcome.welcomeText} />
          </div>
        )}
        {messages.map((message) => (
          <MessageBubble
            key={message.id}
            message={message}
            onRetry={() => void deliver(message.id, message.text)}
          />
        ))}
        <div ref={endOfList} />
      </div>
      {showSuggestions && (
        <ul className="ob-suggestions" aria-label="Suggestions">
          {welcome.start_suggestions.map((suggestion) => (
            <li key={suggestion}>
              <button type="button" className="ob-chip" onClick={() => send(suggestion)}>
                {suggestion}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="ob-composer" onSubmit={submit}>
        <input
          ref={input}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          aria-label={titles.inputTitle}
          placeholder={titles.inputTitle}
          title={titles.inputTitle}
          maxLength={MESSAGE_TEXT_MAX}
          autoComplete="off"
        />
        <button type="submit" className="ob-send" disabled={draft.trim() === ''}>
          {titles.sendTitle}
        </button>
      </form>
    </div>
  );
}

function MessageBubble({ message, onRetry }: { message: ChatMessage; onRetry: () => void }) {
  return (
    <div className={`ob-message ob-${message.role}`} aria-busy={message.status === 'sending'}>
      {message.role === 'bot' ? <Markdown text={message.text} /> : <p>{message.text}</p>}
      {message.sources.length > 0 && (
        <ul className="ob-sources">
          {message.sources.map((source) => (
            <li key={source.url}>
              <Markdown text={`[${source.title.replace(/[[\]]/g, '')}](${source.url})`} />
            </li>
          ))}
        </ul>
      )}
      {message.status === 'failed' && (
        <p className="ob-failed" role="alert">
          Not sent.{' '}
          <button type="button" className="ob-retry" onClick={onRetry}>
            Retry
          </button>
        </p>
      )}
    </div>
  );
}
