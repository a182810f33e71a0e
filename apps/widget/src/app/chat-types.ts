import type { FeedbackRating, IntentSource } from '@omnibot/contracts';

/** One bubble of the conversation as the chat app keeps it. */
export interface ChatMessage {
  /** Local key, stable across renders and reloads. */
  key: string;
  /** The server's message id (what feedback refers to); absent until the server has stored it. */
  id?: string;
  /** `agent`: a person answering; `system`: a line about the conversation itself (an agent joined, it ended). */
  role: 'user' | 'bot' | 'agent' | 'system';
  /** The name of the person who wrote an agent message. */
  author?: string;
  text: string;
  /** What a person wrote, in their language, when `text` is its automatic translation into the visitor's. */
  original?: { text: string; language: string };
  /** `notice`: written by the widget itself (for instance "no agent is available"), never sent or rated. */
  status: 'sending' | 'streaming' | 'sent' | 'failed' | 'notice';
  /** Why a visitor message failed, in plain words. */
  error?: string;
  sources: IntentSource[];
  /** The bot offered a live agent with this answer. */
  handoverOffered?: boolean;
  feedback?: FeedbackRating;
}
