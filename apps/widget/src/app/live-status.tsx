import type { ConversationStatus } from '@omnibot/contracts';
import { agentTypingText, queueText } from './live-texts';

interface LiveStatusProps {
  status: ConversationStatus | null;
  /** The person answering is typing (their name when known). */
  typing: { name: string | null } | null;
}

/** The wait for a person and their typing, as polite live regions (always there, so changes are announced). */
export function LiveStatus({ status, typing }: LiveStatusProps) {
  return (
    <div className="ob-live">
      <p className="ob-live-line" role="status" aria-live="polite">
        {status?.state === 'queued' ? queueText(status.position) : ''}
      </p>
      <p className="ob-live-line" role="status" aria-live="polite">
        {typing === null ? '' : agentTypingText(typing.name)}
      </p>
    </div>
  );
}
