// The widget's own texts of the hand-over to a person, in one place; they are in English and not translated yet.

export const TALK_TO_AGENT = 'Talk to an agent';
export const NO_AGENT_TEXT =
  'No agent is available right now. I can keep helping you here, or please try again later.';
export const HANDOVER_FAILED_TEXT = 'Your request for an agent could not be sent. Please try again.';
export const ENDED_TEXT = 'The conversation has ended.';
export const BACK_TO_BOT_TEXT = 'You are talking to the bot again.';

export const queueText = (position: number | null) =>
  position === null
    ? 'Waiting for an agent…'
    : `Waiting for an agent… You are number ${String(position)} in the queue.`;
export const agentJoinedText = (name: string | null) => `${name ?? 'An agent'} joined the conversation.`;
export const agentTypingText = (name: string | null) => `${name ?? 'The agent'} is typing…`;
/** The header's subtitle while a person answers. */
export const agentSubtitleText = (name: string) => `${name} is answering`;
