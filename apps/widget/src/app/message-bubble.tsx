import type { FeedbackRating, PublicWidgetConfig } from '@omnibot/contracts';
import { useId, useState, type FormEvent } from 'react';
import type { ChatMessage } from './chat-types';
import { TALK_TO_AGENT } from './live-texts';
import { Markdown, safeHref, type Cite } from './markdown';

interface BubbleProps {
  message: ChatMessage;
  config: PublicWidgetConfig;
  /** Whether this answer can be rated (a stored bot answer while feedback is on). */
  canRate: boolean;
  onRetry: () => void;
  onRate: (rating: FeedbackRating, comment?: string) => Promise<void>;
  onHandover: () => void;
}

/**
 * One message: Markdown for the bot, plain text for the visitor and for a person (under their name), with sources,
 * feedback and retry; a line about the conversation itself stands apart.
 */
export function MessageBubble({ message, config, canRate, onRetry, onRate, onHandover }: BubbleProps) {
  const streaming = message.status === 'streaming';
  const sourcesId = useId();
  if (message.role === 'system') return <p className="ob-system">{message.text}</p>;
  // A citation links to its source's page, or to the source in the list below when the source has no page.
  const cite: Cite = (n, key) => {
    const index = message.sources.findIndex((source) => source.n === n);
    const source = message.sources[index];
    if (source === undefined) return null;
    const href = source.url === null ? null : safeHref(source.url);
    return (
      <sup key={key} className="ob-cite">
        <a
          href={href ?? `#${sourcesId}-${String(index)}`}
          aria-label={`Source ${String(n)}: ${source.title}`}
          title={source.title}
          {...(href === null ? {} : { target: '_blank', rel: 'noopener noreferrer' })}
        >
          {n}
        </a>
      </sup>
    );
  };
  return (
    <div
      className={`ob-message ob-${message.role}${message.status === 'failed' ? ' ob-unsent' : ''}`}
      aria-busy={streaming || message.status === 'sending'}
    >
      {message.role === 'agent' && message.author !== undefined && (
        <p className="ob-author">{message.author}</p>
      )}
      {message.role === 'bot' ? (
        <Markdown text={message.text} cite={cite} />
      ) : message.original === undefined ? (
        <p>{message.text}</p>
      ) : (
        <TranslatedText text={message.text} original={message.original} />
      )}
      {message.sources.length > 0 && (
        <ul className="ob-sources" aria-label="Sources">
          {message.sources.map((source, index) => {
            const href = source.url === null ? null : safeHref(source.url);
            const label = `[${String(source.n)}] ${source.title}`;
            return (
              <li key={index} id={`${sourcesId}-${String(index)}`}>
                {href === null ? (
                  label
                ) : (
                  <a href={href} target="_blank" rel="noopener noreferrer">
                    {label}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {message.handoverOffered === true && (
        <button type="button" className="ob-link-button" onClick={onHandover}>
          {TALK_TO_AGENT}
        </button>
      )}
      {message.status === 'failed' && (
        <p className="ob-failed" role="alert">
          {message.error ?? 'Not sent.'}{' '}
          <button type="button" className="ob-link-button" onClick={onRetry}>
            Retry
          </button>
        </p>
      )}
      {canRate && <Feedback message={message} config={config} onRate={onRate} />}
    </div>
  );
}

/** A language's English name ("English" for en); the code itself when the browser knows no name for it. */
function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** A person's message in the visitor's language, saying it was translated, with the words they wrote a click away. */
function TranslatedText({
  text,
  original,
}: {
  text: string;
  original: NonNullable<ChatMessage['original']>;
}) {
  const [showOriginal, setShowOriginal] = useState(false);
  const from = original.language === '' ? null : languageName(original.language);
  return (
    <>
      <p lang={showOriginal && original.language !== '' ? original.language : undefined}>
        {showOriginal ? original.text : text}
      </p>
      <p className="ob-translated">
        {showOriginal ? 'Original message' : from === null ? 'Translated' : `Translated from ${from}`}
        {' · '}
        <button type="button" className="ob-link-button" onClick={() => setShowOriginal((shown) => !shown)}>
          {showOriginal ? 'Show translation' : 'Show original'}
        </button>
      </p>
    </>
  );
}

const RATINGS: FeedbackRating[] = ['button1', 'button2', 'button3'];

function Feedback({
  message,
  config,
  onRate,
}: {
  message: ChatMessage;
  config: PublicWidgetConfig;
  onRate: BubbleProps['onRate'];
}) {
  const { feedback } = config;
  const [state, setState] = useState<'idle' | 'saving' | 'failed' | 'thanked'>('idle');
  const [comment, setComment] = useState('');
  const commentId = useId();
  const disclaimerId = useId();
  const labels: Record<FeedbackRating, string> = {
    button1: feedback.button1Text,
    button2: feedback.button2Text,
    button3: feedback.button3Text,
  };

  const rate = (rating: FeedbackRating, text?: string) => {
    setState('saving');
    onRate(rating, text).then(
      () => setState(text === undefined ? 'idle' : 'thanked'),
      () => setState('failed'),
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = comment.trim();
    if (message.feedback !== undefined && text !== '') rate(message.feedback, text);
  };

  return (
    <div className="ob-feedback">
      <div role="group" aria-label="Rate this answer" className="ob-ratings">
        {RATINGS.filter((rating) => labels[rating] !== '').map((rating) => (
          <button
            key={rating}
            type="button"
            className="ob-rating"
            aria-pressed={message.feedback === rating}
            disabled={state === 'saving'}
            onClick={() => rate(rating)}
          >
            {labels[rating]}
          </button>
        ))}
      </div>
      {message.feedback !== undefined && feedback.enableComment && state !== 'thanked' && (
        <form className="ob-comment" onSubmit={submit}>
          <label htmlFor={commentId}>Comment (optional)</label>
          <textarea
            id={commentId}
            value={comment}
            maxLength={1000}
            rows={2}
            aria-describedby={feedback.disclaimer === '' ? undefined : disclaimerId}
            onChange={(event) => setComment(event.target.value)}
          />
          {feedback.disclaimer !== '' && (
            <p id={disclaimerId} className="ob-disclaimer">
              {feedback.disclaimer}
            </p>
          )}
          <button type="submit" className="ob-rating" disabled={comment.trim() === '' || state === 'saving'}>
            Send comment
          </button>
        </form>
      )}
      <p className="ob-feedback-status" role="status">
        {state === 'failed'
          ? 'Your feedback was not sent. Please try again.'
          : state === 'thanked' || (message.feedback !== undefined && !feedback.enableComment)
            ? 'Thank you for your feedback.'
            : ''}
      </p>
    </div>
  );
}
