import type { IntentReply, PublicWidgetConfig } from '@omnibot/contracts';
import { useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { ApiError, describeSendError, postIntent } from './api';
import type { ChatMessage } from './chat-types';

export const PREVIEW_NOTE = 'This is a preview: the saved bot answers here.';

interface AnswerStreamOptions {
  apiBase: string;
  botId: string;
  /** The embedding page's origin, sent with each message; null outside a frame. */
  hostOrigin: string | null;
  /** A console preview of a bot not saved yet: answered here, with no API call. */
  offline: boolean;
  config: PublicWidgetConfig;
  language: string;
  token: RefObject<string | undefined>;
  setMessages: Dispatch<SetStateAction<ChatMessage[]>>;
  patch: (key: string, change: Partial<ChatMessage>) => void;
  /** The reply arrived and its answers are in the conversation. */
  onAnswered: (reply: IntentReply, answers: ChatMessage[]) => void;
  /** The conversation had ended (a person closed it): the message is sent again as the start of a new one. */
  onConversationEnded: () => void;
}

/**
 * Sends a visitor message and draws its answer as it streams in: the answer grows under a key of its own while
 * deltas arrive, gives way to the reply's messages, and a failure marks the visitor's message failed. While a person
 * answers, the reply has no messages (theirs come over the live stream). `pending` counts the messages on their way.
 */
export function useAnswerStream({
  apiBase,
  botId,
  hostOrigin,
  offline,
  config,
  language,
  token,
  setMessages,
  patch,
  onAnswered,
  onConversationEnded,
}: AnswerStreamOptions) {
  const [pending, setPending] = useState(0);
  const { welcome } = config;

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
    const ask = () =>
      offline
        ? localReply(key)
        : postIntent(
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
    try {
      let reply: IntentReply;
      try {
        reply = await ask();
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'handover/closed') || token.current === undefined)
          throw error;
        token.current = undefined;
        onConversationEnded();
        reply = await ask();
      }
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
      // The live stream may have shown these messages already: the reply's own take their place.
      const stored = new Set(
        offline ? [] : [reply.visitorMessage.id, ...reply.messages.map((answer) => answer.id)],
      );
      setMessages((list) => [
        ...list
          .filter(
            (message) =>
              message.key !== answerKey &&
              (message.key === key || message.id === undefined || !stored.has(message.id)),
          )
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
      onAnswered(reply, answers);
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

  return { pending, deliver };
}
