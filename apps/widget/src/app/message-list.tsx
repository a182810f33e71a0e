import type { FeedbackRating, PublicWidgetConfig } from '@omnibot/contracts';
import { useEffect, useRef } from 'react';
import type { ChatMessage } from './chat-types';
import { ChipMenu } from './chip-menu';
import { Markdown } from './markdown';
import { MessageBubble } from './message-bubble';

interface MessageListProps {
  config: PublicWidgetConfig;
  messages: ChatMessage[];
  /** Messages on their way: the bot is shown typing while none of their answers streams. */
  pending: number;
  onSend: (text: string) => void;
  onRetry: (message: ChatMessage) => void;
  onRate: (message: ChatMessage, rating: FeedbackRating, comment?: string) => Promise<void>;
  onHandover: () => void;
}

/** The welcome text and menu, then the conversation (a live log), kept scrolled to its end. */
export function MessageList({
  config,
  messages,
  pending,
  onSend,
  onRetry,
  onRate,
  onHandover,
}: MessageListProps) {
  const { identity, welcome, behaviour } = config;
  const endOfList = useRef<HTMLDivElement>(null);
  const streaming = messages.some((message) => message.status === 'streaming');

  useEffect(() => {
    endOfList.current?.scrollIntoView?.({ block: 'end' });
  }, [messages, pending]);

  return (
    <div className="ob-messages">
      {welcome.welcomeText_enabled && welcome.welcomeText !== '' && (
        <div className="ob-message ob-bot">
          <Markdown text={welcome.welcomeText} />
        </div>
      )}
      {welcome.welcomeMenu.length > 0 && (
        <ChipMenu
          className="ob-menu ob-welcome-menu"
          label="Welcome menu"
          chips={welcome.welcomeMenu}
          onPick={onSend}
        />
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
            onRetry={() => onRetry(message)}
            onRate={(rating, comment) => onRate(message, rating, comment)}
            onHandover={onHandover}
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
  );
}
