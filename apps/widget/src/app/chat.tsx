import {
  EVENT_TEXT_MAX,
  PROTOCOL_SOURCE,
  VISITOR_TEXT_MAX,
  isLanguageCode,
  maskText,
  parseHostMessage,
  type FeedbackRating,
  type FrameToHostMessage,
  type IntentReply,
  type PublicWidgetConfig,
} from '@omnibot/contracts';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { ApiError, describeSendError, fetchSpeech, postFeedback, postIntent } from './api';
import type { ChatMessage } from './chat-types';
import { Markdown } from './markdown';
import { MessageBubble, TALK_TO_AGENT } from './message-bubble';
import {
  playAudio,
  playBeep,
  recognitionOf,
  speakNatively,
  spokenText,
  stopSpeaking,
  type Recognition,
} from './speech';
import { loadChat, readSavedChat, saveChat, savedChatText, sessionStorageOrNull } from './storage';
import { themeOf, usePrefersDark } from './theme';

export const NO_AGENT_TEXT =
  'No agent is available right now. I can keep helping you here, or please try again later.';
export const PREVIEW_NOTE = 'This is a preview: the saved bot answers here.';

/** Languages the visitor can pick when the bot translates; the current one is always offered too. */
const LANGUAGE_CHOICES = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt',
  'nl',
  'pl',
  'sv',
  'da',
  'fi',
  'nb',
  'cs',
  'tr',
  'ru',
  'uk',
  'el',
  'ar',
  'he',
  'hi',
  'ja',
  'ko',
  'zh',
];

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** An image URL from the configuration when it is http(s); anything else draws no image. */
export function safeImage(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const { protocol, href } = new URL(url);
  return protocol === 'http:' || protocol === 'https:' ? href : null;
}

function languageName(code: string, display: string): string {
  try {
    return new Intl.DisplayNames([display], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

let keyCounter = 0;
const newKey = () => `${Date.now().toString(36)}-${String((keyCounter += 1))}`;

export interface ChatProps {
  /** The server the answers come from (the iframe's own origin in production). */
  apiBase: string;
  /** The bot; '' only in a console preview of a bot not saved yet, which calls no API. */
  botId: string;
  /** The embedding page's origin: the only window messages are taken from and posted to; null outside a frame. */
  hostOrigin: string | null;
  config: PublicWidgetConfig;
  /** The conversation the loader kept in the host page's storage (with `hostOrigin`); null when there is none. */
  savedChat?: string | null;
  /** The console's live preview: no storage, and with no bot id no API calls. */
  preview?: boolean;
  /** Forces light or dark colours (the console preview); otherwise the configuration decides. */
  colorScheme?: 'light' | 'dark';
  /** Told the visitor's language at start and on each change (translated-texts.tsx translates the texts). */
  onLanguageChange?: (language: string) => void;
}

/** The chat window inside the widget's iframe. */
export function Chat({
  apiBase,
  botId,
  hostOrigin,
  config,
  savedChat = null,
  preview = false,
  colorScheme,
  onLanguageChange,
}: ChatProps) {
  const { identity, titles, welcome, behaviour, masking, language: languages, services, launcher } = config;
  const prefersDark = usePrefersDark();
  const scheme = colorScheme ?? config.appearance.colorScheme;
  const dark = scheme === 'auto' ? prefersDark : scheme === 'dark';
  const offline = preview && botId === '';
  const keeps = !preview && behaviour.sessionStorage;
  // Embedded, the loader keeps the conversation in the host page's storage (a cross-site frame has none of its
  // own); opened on its own, the frame keeps it in its sessionStorage.
  const storage = useMemo(
    () => (keeps && hostOrigin === null ? sessionStorageOrNull() : null),
    [keeps, hostOrigin],
  );
  const [saved] = useState(() =>
    !keeps ? null : hostOrigin === null ? loadChat(storage, botId) : readSavedChat(savedChat),
  );
  const stored = useRef(savedChat);
  const [messages, setMessages] = useState<ChatMessage[]>(() => saved?.messages ?? []);
  const [language, setLanguage] = useState(saved?.language ?? languages.default_language);
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState(0);
  const [muted, setMuted] = useState(behaviour.muted);
  const [menuOpen, setMenuOpen] = useState(false);
  const [listening, setListening] = useState(false);
  const [status, setStatus] = useState('');
  const token = useRef<string | undefined>(saved?.conversationToken);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const recognition = useRef<Recognition | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  const mutedRef = useRef(muted);
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const endOfList = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const translating = services.translate && languages.autoTranslate;
  const Recognizer = behaviour.microphone_enabled ? recognitionOf(window) : null;

  const postToHost = useCallback(
    (message: FrameToHostMessage) => {
      // Outside a frame the parent is this window, and the browser drops a message for another origin.
      if (hostOrigin !== null) window.parent.postMessage(message, hostOrigin);
    },
    [hostOrigin],
  );

  const patch = (key: string, change: Partial<ChatMessage>) =>
    setMessages((list) => list.map((message) => (message.key === key ? { ...message, ...change } : message)));

  useEffect(() => {
    if (!keeps) return;
    const chat = { conversationToken: token.current, language, messages };
    if (hostOrigin === null) {
      saveChat(storage, botId, chat);
      return;
    }
    const text = savedChatText(chat);
    // Streamed text changes nothing that is kept: only a changed conversation goes to the loader.
    if (text === stored.current || (stored.current === null && messages.length === 0)) return;
    stored.current = text;
    postToHost({ source: PROTOCOL_SOURCE, type: 'store', chat: text });
  }, [keeps, storage, hostOrigin, postToHost, botId, language, messages]);

  // The visitor's language, for the widget's own texts in it (translated-texts.tsx).
  useEffect(() => onLanguageChange?.(language), [onLanguageChange, language]);

  const speak = useCallback(
    (text: string) => {
      if (!behaviour.speaker_enabled || mutedRef.current) return;
      const words = spokenText(text).slice(0, VISITOR_TEXT_MAX);
      if (words === '') return;
      if (
        behaviour.voice === 'native' ||
        !services.tts ||
        offline ||
        typeof URL.createObjectURL !== 'function'
      ) {
        speakNatively(words, language);
        return;
      }
      fetchSpeech(apiBase, { botId, conversationToken: token.current, text: words, language }).then(
        (blob) => {
          if (mutedRef.current) return;
          audio.current?.pause();
          audio.current = playAudio(URL.createObjectURL(blob));
        },
        // No server voice (501) or a failing one: the browser's own voice reads it instead.
        () => speakNatively(words, language),
      );
    },
    [apiBase, botId, behaviour.speaker_enabled, behaviour.voice, services.tts, offline, language],
  );

  const announce = useCallback(
    (answers: ChatMessage[]) => {
      if (answers.length === 0) return;
      for (const answer of answers)
        postToHost({
          source: PROTOCOL_SOURCE,
          type: 'message',
          role: 'bot',
          text: answer.text.slice(0, EVENT_TEXT_MAX),
        });
      if (behaviour.msgRecvTone_enabled) {
        const tone = safeImage(behaviour.msgRecvTone);
        if (tone === null) playBeep();
        else playAudio(tone);
      }
      speak(answers.map((answer) => answer.text).join('\n\n'));
    },
    [postToHost, behaviour.msgRecvTone_enabled, behaviour.msgRecvTone, speak],
  );

  const localReply = (key: string): IntentReply => ({
    conversationToken: '',
    visitorMessage: { id: key, text: '' },
    messages: [
      {
        id: `${key}:preview`,
        text: welcome.welcomeText_enabled && welcome.welcomeText !== '' ? welcome.welcomeText : PREVIEW_NOTE,
      },
    ],
    sources: [],
    fallback: true,
    handoverOffered: config.liveAgent.enabled,
    language,
  });

  const deliver = async (key: string, text: string) => {
    const answerKey = `${key}:answer`;
    patch(key, { status: 'sending', error: undefined });
    setPending((count) => count + 1);
    try {
      const reply = offline
        ? localReply(key)
        : await postIntent(
            apiBase,
            {
              botId,
              conversationToken: token.current,
              text,
              language,
              ...(hostOrigin === null ? {} : { hostOrigin }),
            },
            {
              onConversation: (conversationToken, visitor) => {
                token.current = conversationToken;
                patch(key, { id: visitor.id, text: visitor.text });
              },
              onDelta: (delta) =>
                setMessages((list) => {
                  const streamed = list.find((message) => message.key === answerKey);
                  if (streamed !== undefined)
                    return list.map((message) =>
                      message === streamed ? { ...message, text: message.text + delta } : message,
                    );
                  return [
                    ...list,
                    { key: answerKey, role: 'bot', text: delta, status: 'streaming', sources: [] },
                  ];
                }),
              onReset: () => setMessages((list) => list.filter((message) => message.key !== answerKey)),
            },
          );
      if (!offline) token.current = reply.conversationToken;
      const last = reply.messages.length - 1;
      const answers: ChatMessage[] = reply.messages.map((answer, index) => ({
        key: `${key}:${answer.id}`,
        id: offline ? undefined : answer.id,
        role: 'bot',
        text: answer.text,
        status: offline ? 'notice' : 'sent',
        sources: index === last ? reply.sources : [],
        handoverOffered: index === last && reply.handoverOffered,
      }));
      setMessages((list) => [
        ...list
          .filter((message) => message.key !== answerKey)
          .map((message) =>
            message.key === key
              ? {
                  ...message,
                  status: 'sent' as const,
                  ...(offline ? {} : { id: reply.visitorMessage.id, text: reply.visitorMessage.text }),
                }
              : message,
          ),
        ...answers,
      ]);
      if (translating && isLanguageCode(reply.language)) setLanguage(reply.language);
      announce(answers);
    } catch (error) {
      setMessages((list) =>
        list
          .filter((message) => message.key !== answerKey)
          .map((message) =>
            message.key === key
              ? { ...message, status: 'failed' as const, error: describeSendError(error) }
              : message,
          ),
      );
    } finally {
      setPending((count) => count - 1);
    }
  };

  // Messages go out one at a time, in order, so a conversation token issued by the first reaches the next.
  const enqueue = (key: string, text: string) => {
    queue.current = queue.current.then(() => deliver(key, text));
  };

  const send = (raw: string) => {
    const trimmed = raw.trim();
    if (trimmed === '') return;
    // Masked here, before the text leaves the browser; the visitor sees exactly what is sent.
    const text = masking.enableMasking ? maskText(trimmed, masking.patterns, masking.maskCharacter) : trimmed;
    const key = newKey();
    setMessages((list) => [...list, { key, role: 'user', text, status: 'sending', sources: [] }]);
    setMenuOpen(false);
    postToHost({ source: PROTOCOL_SOURCE, type: 'message', role: 'user', text });
    enqueue(key, text);
  };
  const sendRef = useRef(send);
  sendRef.current = send;

  const rate = async (message: ChatMessage, rating: FeedbackRating, comment?: string) => {
    if (message.id === undefined || token.current === undefined)
      throw new ApiError(0, 'widget/not-stored', '');
    const masked =
      comment !== undefined && masking.enableMasking
        ? maskText(comment, masking.patterns, masking.maskCharacter)
        : comment;
    await postFeedback(apiBase, {
      botId,
      conversationToken: token.current,
      messageId: message.id,
      rating,
      ...(masked === undefined ? {} : { comment: masked }),
    });
    patch(message.key, { feedback: rating });
  };

  const handover = () => {
    setMessages((list) => [
      ...list,
      { key: newKey(), role: 'bot', text: NO_AGENT_TEXT, status: 'notice', sources: [] },
    ]);
    postToHost({ source: PROTOCOL_SOURCE, type: 'handover' });
  };

  const toggleMute = () => {
    const next = !muted;
    mutedRef.current = next;
    setMuted(next);
    if (next) {
      stopSpeaking();
      audio.current?.pause();
    }
  };

  const toggleMicrophone = () => {
    if (Recognizer === null) {
      setStatus(titles.recognitionUnavailable);
      return;
    }
    if (listening) {
      recognition.current?.stop();
      return;
    }
    const listener = new Recognizer();
    listener.lang = language;
    listener.interimResults = false;
    listener.continuous = false;
    listener.onresult = (event) => {
      const heard = Array.from(event.results, (result) => result[0]?.transcript ?? '')
        .join(' ')
        .trim();
      if (heard !== '')
        setDraft((text) => (text === '' ? heard : `${text} ${heard}`).slice(0, VISITOR_TEXT_MAX));
    };
    listener.onend = () => {
      setListening(false);
      recognition.current = null;
      input.current?.focus();
    };
    listener.onerror = () => setStatus(titles.recognitionUnavailable);
    recognition.current = listener;
    setStatus('');
    setListening(true);
    listener.start();
  };

  useEffect(() => {
    if (hostOrigin === null) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== hostOrigin || event.source !== window.parent) return;
      const message = parseHostMessage(event.data);
      if (message === null) return;
      if (message.type === 'send') sendRef.current(message.text);
      else if (message.type === 'setLanguage') setLanguage(message.language);
      else input.current?.focus();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [hostOrigin]);

  useEffect(() => {
    postToHost({ source: PROTOCOL_SOURCE, type: 'ready' });
  }, [postToHost]);

  // Esc closes the window (or the open menu first); Tab and Shift+Tab cycle inside it.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        if (menuOpen) setMenuOpen(false);
        else postToHost({ source: PROTOCOL_SOURCE, type: 'close' });
        return;
      }
      if (event.key !== 'Tab' || root.current === null) return;
      const focusable = [...root.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = focusable[0];
      const last = focusable.at(-1);
      if (first === undefined || last === undefined) return;
      const active = document.activeElement;
      const inside = active instanceof HTMLElement && root.current.contains(active);
      if (event.shiftKey && (!inside || active === first)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (!inside || active === last)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen, postToHost]);

  useEffect(() => {
    endOfList.current?.scrollIntoView?.({ block: 'end' });
  }, [messages, pending]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(draft);
    setDraft('');
  };

  const streaming = messages.some((message) => message.status === 'streaming');
  const showSuggestions =
    welcome.start_suggestions.length > 0 && !messages.some((message) => message.role === 'user');
  const avatar = safeImage(identity.avatarUri);
  const languageChoices = LANGUAGE_CHOICES.includes(language)
    ? LANGUAGE_CHOICES
    : [language, ...LANGUAGE_CHOICES];

  return (
    <div ref={root} className="ob-chat" style={themeOf(config, dark)} lang={language}>
      <header className="ob-header">
        {avatar !== null ? (
          <img className="ob-avatar" src={avatar} alt="" />
        ) : (
          <span className="ob-avatar" aria-hidden="true">
            {identity.botName.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="ob-title">
          <h1>{identity.botName}</h1>
          {identity.description !== '' && <p>{identity.description}</p>}
        </div>
        {translating && (
          <select
            className="ob-language"
            aria-label="Language"
            title="Language"
            value={language}
            onChange={(event) => setLanguage(event.target.value)}
          >
            {languageChoices.map((code) => (
              <option key={code} value={code}>
                {languageName(code, language)}
              </option>
            ))}
          </select>
        )}
        {behaviour.speaker_enabled && (
          <button
            type="button"
            className="ob-icon-button"
            aria-pressed={muted}
            aria-label={muted ? titles.unMuteTitle : titles.muteTitle}
            title={muted ? titles.unMuteTitle : titles.muteTitle}
            onClick={toggleMute}
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
        )}
        {!preview && (
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
        )}
      </header>
      <div className="ob-messages">
        {welcome.welcomeText_enabled && welcome.welcomeText !== '' && (
          <div className="ob-message ob-bot">
            <Markdown text={welcome.welcomeText} />
          </div>
        )}
        {welcome.welcomeMenu.length > 0 && (
          <ul className="ob-menu ob-welcome-menu" aria-label="Welcome menu">
            {welcome.welcomeMenu.map((item, index) => (
              <li key={index}>
                <button type="button" className="ob-chip" onClick={() => send(item.text)}>
                  {item.label}
                </button>
              </li>
            ))}
          </ul>
        )}
        <div role="log" aria-live="polite" aria-relevant="additions" className="ob-log">
          {messages.map((message) => (
            <MessageBubble
              key={message.key}
              message={message}
              config={config}
              canRate={
                behaviour.enableUserFeedback &&
                message.role === 'bot' &&
                message.status === 'sent' &&
                message.id !== undefined
              }
              onRetry={() => enqueue(message.key, message.text)}
              onRate={(rating, comment) => rate(message, rating, comment)}
              onHandover={handover}
            />
          ))}
        </div>
        {pending > 0 && !streaming && (
          <div className="ob-typing" role="status" aria-label={`${identity.botName} is typing`}>
            <span />
            <span />
            <span />
          </div>
        )}
        <div ref={endOfList} />
      </div>
      {showSuggestions && (
        <ul className="ob-suggestions" aria-label="Suggestions">
          {welcome.start_suggestions.map((suggestion, index) => (
            <li key={index}>
              <button type="button" className="ob-chip" onClick={() => send(suggestion)}>
                {suggestion}
              </button>
            </li>
          ))}
        </ul>
      )}
      {config.liveAgent.enabled && (
        <div className="ob-actions">
          <button type="button" className="ob-link-button" onClick={handover}>
            {TALK_TO_AGENT}
          </button>
        </div>
      )}
      {menuOpen && (
        <ul id={menuId} className="ob-menu ob-popup-menu" aria-label="Menu">
          {welcome.popupMenu.map((item, index) => (
            <li key={index}>
              <button type="button" className="ob-chip" onClick={() => send(item.text)}>
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="ob-composer" onSubmit={submit}>
        {welcome.enablePopupMenu && welcome.popupMenu.length > 0 && (
          <button
            type="button"
            className="ob-icon-button"
            aria-label="Menu"
            title="Menu"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
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
              <path d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </button>
        )}
        <input
          ref={input}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          aria-label={titles.inputTitle}
          placeholder={titles.inputTitle}
          title={titles.inputTitle}
          maxLength={VISITOR_TEXT_MAX}
          autoComplete="off"
        />
        {behaviour.microphone_enabled && (
          <button
            type="button"
            className="ob-icon-button"
            aria-label={Recognizer === null ? titles.recognitionUnavailable : titles.microphoneTitle}
            title={Recognizer === null ? titles.recognitionUnavailable : titles.microphoneTitle}
            aria-disabled={Recognizer === null}
            aria-pressed={Recognizer === null ? undefined : listening}
            onClick={toggleMicrophone}
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
              <rect x="9" y="3" width="6" height="11" rx="3" />
              <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
            </svg>
          </button>
        )}
        <button type="submit" className="ob-send" disabled={draft.trim() === ''}>
          {titles.sendTitle}
        </button>
      </form>
      <p className="ob-status-line" role="status">
        {status}
      </p>
    </div>
  );
}
