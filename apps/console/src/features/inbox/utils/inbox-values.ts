import type { ConversationState, InboxConversation, LiveMessage } from '@omnibot/contracts';

const MINUTE_MS = 60_000;

/** "waiting 3 min" since `queuedAt`; "waiting 1 h 5 min" past an hour, "waiting under a minute" at first. */
export function waitingText(queuedAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(queuedAt)) / MINUTE_MS));
  if (Number.isNaN(minutes)) return 'waiting';
  if (minutes < 1) return 'waiting under a minute';
  if (minutes < 60) return `waiting ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `waiting ${hours} h` : `waiting ${hours} h ${rest} min`;
}

/** Whether the signed-in user (`userId`) is the person answering the conversation. */
export const isMine = (conversation: InboxConversation, userId: string | null): boolean =>
  conversation.state === 'agent' && userId !== null && conversation.agent?.id === userId;

/** The state as a badge says it, from the reader's side. */
export function stateLabel(conversation: InboxConversation, userId: string | null): string {
  const labels: Record<ConversationState, string> = {
    bot: 'With the bot',
    queued: 'Waiting',
    agent: isMine(conversation, userId) ? 'With you' : `With ${conversation.agent?.name ?? 'an agent'}`,
    closed: 'Closed',
  };
  return labels[conversation.state];
}

export const STATE_COLORS: Record<ConversationState, string> = {
  bot: 'gray',
  queued: 'yellow',
  agent: 'teal',
  closed: 'gray',
};

/** Who wrote a message, as the transcript names them; system lines have no author. */
export function authorOf(message: LiveMessage): string {
  switch (message.role) {
    case 'visitor':
      return 'Visitor';
    case 'bot':
      return 'Bot';
    case 'agent':
      return message.author ?? 'Agent';
    case 'system':
      return '';
  }
}
