import {
  EVENT_TEXT_MAX,
  PROTOCOL_SOURCE,
  VISITOR_TEXT_MAX,
  isLanguageCode,
  maskText,
  type FeedbackRating,
  type PublicWidgetConfig,
} from '@omnibot/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, postFeedback } from './api';
import { ChatComposer } from './chat-composer';
import { ChatHeader } from './chat-header';
import { ChatShortcuts } from './chat-shortcuts';
import type { ChatMessage } from './chat-types';
import { useFocusTrap } from './focus-trap';
import { useHostMessages, useHostPost } from './host-bridge';
import { LiveStatus } from './live-status';
import { HANDOVER_FAILED_TEXT, NO_AGENT_TEXT, TALK_TO_AGENT } from './live-texts';
import { MessageList } from './message-list';
import { useSendQueue } from './send-queue';
import { themeOf, usePrefersDark } from './theme';
import { useAnswerStream } from './use-answer-stream';
import { useChatState } from './use-chat-state';
import { useLiveConversation } from './use-live-conversation';
import { useSpeechControls } from './use-speech-controls';

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
  const { behaviour, masking, language: languages, services } = config;
  const prefersDark = usePrefersDark();
  const scheme = colorScheme ?? config.appearance.colorScheme;
  const dark = scheme === 'auto' ? prefersDark : scheme === 'dark';
  const offline = preview && botId === '';
  const translating = services.translate && languages.autoTranslate;
  const postToHost = useHostPost(hostOrigin);
  const { messages, setMessages, patch, language, setLanguage, token, live, setLive } = useChatState({
    botId,
    hostOrigin,
    savedChat,
    keeps: !preview && behaviour.sessionStorage,
    defaultLanguage: languages.default_language,
    postToHost,
  });
  const [draft, setDraft] = useState('');
  const [menuOpen, setMenuOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const enqueue = useSendQueue();

  // The visitor's language, for the widget's own texts in it (translated-texts.tsx).
  useEffect(() => onLanguageChange?.(language), [onLanguageChange, language]);

  const person = useLiveConversation({
    apiBase,
    botId,
    language,
    token,
    live,
    setLive,
    setMessages,
    newKey,
  });
  // Queued or answered by a person: the bot does not answer, and the visitor does not ask again.
  const withPerson = person.status?.state === 'queued' || person.status?.state === 'agent';

  const speech = useSpeechControls({
    apiBase,
    botId,
    config,
    offline,
    language,
    token,
    onHeard: (heard) =>
      setDraft((text) => (text === '' ? heard : `${text} ${heard}`).slice(0, VISITOR_TEXT_MAX)),
    onListenEnd: () => input.current?.focus(),
  });

  const { pending, deliver } = useAnswerStream({
    apiBase,
    botId,
    hostOrigin,
    offline,
    config,
    language,
    token,
    setMessages,
    patch,
    onAnswered: (reply, answers) => {
      if (translating && isLanguageCode(reply.language)) setLanguage(reply.language);
      // A person holds the conversation, or it was just handed to one: what they say comes over its event stream.
      if (reply.handover !== undefined) person.show(reply.handover);
      if (answers.length === 0) return;
      for (const answer of answers)
        postToHost({
          source: PROTOCOL_SOURCE,
          type: 'message',
          role: 'bot',
          text: answer.text.slice(0, EVENT_TEXT_MAX),
        });
      speech.announce(answers.map((answer) => answer.text));
    },
    onConversationEnded: person.forget,
  });

  // Masked here, before the text leaves the browser; the visitor sees exactly what is sent.
  const mask = (text: string) =>
    masking.enableMasking ? maskText(text, masking.patterns, masking.maskCharacter) : text;

  const send = (raw: string) => {
    const trimmed = raw.trim();
    if (trimmed === '') return;
    const text = mask(trimmed);
    const key = newKey();
    setMessages((list) => [...list, { key, role: 'user', text, status: 'sending', sources: [] }]);
    setMenuOpen(false);
    postToHost({ source: PROTOCOL_SOURCE, type: 'message', role: 'user', text });
    enqueue(() => deliver(key, text));
  };

  const rate = async (message: ChatMessage, rating: FeedbackRating, comment?: string) => {
    if (message.id === undefined || token.current === undefined)
      throw new ApiError(0, 'widget/not-stored', '');
    const masked = comment === undefined ? undefined : mask(comment);
    await postFeedback(apiBase, {
      botId,
      conversationToken: token.current,
      messageId: message.id,
      rating,
      ...(masked === undefined ? {} : { comment: masked }),
    });
    patch(message.key, { feedback: rating });
  };

  const notice = (text: string) =>
    setMessages((list) => [...list, { key: newKey(), role: 'bot', text, status: 'notice', sources: [] }]);

  // A person can only be asked for in a conversation: without one, the button's text starts it.
  const handover = (again = false) => {
    if (withPerson) return;
    if (!again) postToHost({ source: PROTOCOL_SOURCE, type: 'handover' });
    if (offline) {
      notice(NO_AGENT_TEXT);
      return;
    }
    if (token.current === undefined) send(TALK_TO_AGENT);
    enqueue(async () => {
      // The message that was to start the conversation failed, and says so itself.
      if (token.current === undefined) return;
      const outcome = await person.requestHandover();
      if (outcome === 'not-offered') notice(NO_AGENT_TEXT);
      // The hours closed since the configuration was read: the bot's offline text says when to come back.
      else if (typeof outcome === 'object') notice(config.liveAgent.offlineText ?? outcome.outOfHours);
      else if (outcome === 'failed') notice(HANDOVER_FAILED_TEXT);
      else if (outcome === 'closed' && !again) {
        token.current = undefined;
        person.forget();
        handover(true);
      }
    });
  };

  const close = useCallback(() => postToHost({ source: PROTOCOL_SOURCE, type: 'close' }), [postToHost]);

  useHostMessages(hostOrigin, postToHost, {
    onSend: send,
    onSetLanguage: setLanguage,
    onOpened: () => input.current?.focus(),
  });

  // Esc closes the window (or the open menu first); Tab and Shift+Tab cycle inside it.
  const escape = useCallback(() => {
    if (menuOpen) setMenuOpen(false);
    else close();
  }, [menuOpen, close]);
  useFocusTrap(root, escape);

  return (
    <div ref={root} className="ob-chat" style={themeOf(config, dark)} lang={language}>
      <ChatHeader
        config={config}
        language={language}
        translating={translating}
        onLanguageChange={setLanguage}
        muted={speech.muted}
        onToggleMute={speech.toggleMute}
        agent={person.status?.state === 'agent' ? (person.status.agent?.name ?? null) : null}
        closable={!preview}
        onClose={close}
      />
      <MessageList
        config={config}
        messages={messages}
        pending={withPerson ? 0 : pending}
        onSend={send}
        onRetry={(message) => enqueue(() => deliver(message.key, message.text))}
        onRate={rate}
        onHandover={() => handover()}
      />
      <LiveStatus status={person.status} typing={person.typing} />
      <ChatShortcuts
        config={config}
        suggesting={!messages.some((message) => message.role === 'user')}
        canHandover={!withPerson}
        onSend={send}
        onHandover={() => handover()}
      />
      <ChatComposer
        config={config}
        draft={draft}
        onDraftChange={(text) => {
          setDraft(text);
          if (text !== '') person.visitorTyping();
        }}
        input={input}
        onSubmit={() => {
          send(draft);
          setDraft('');
        }}
        onSend={send}
        menuOpen={menuOpen}
        onToggleMenu={() => setMenuOpen((open) => !open)}
        canListen={speech.canListen}
        listening={speech.listening}
        onToggleMicrophone={speech.toggleMicrophone}
      />
      <p className="ob-status-line" role="status">
        {speech.status}
      </p>
    </div>
  );
}
