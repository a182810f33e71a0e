import type { CaseSummary, Conversation, ConversationSummary, TranscriptMessage } from '@omnibot/contracts';
import type { ConversationSummaryRow, TranscriptRows } from './dashboard.service';

/** A conversation of the log: its times, origin and what happened in it. */
export function presentConversationSummary(item: ConversationSummaryRow): ConversationSummary {
  const { row } = item;
  return {
    id: row.id,
    bot_id: row.botId,
    origin: row.origin,
    country: row.country,
    language: row.language,
    started_at: row.startedAt.toISOString(),
    last_message_at: row.lastMessageAt.toISOString(),
    message_count: item.messageCount,
    first_visitor_text: item.firstVisitorText,
    fallback_count: item.fallbackCount,
    feedback: item.feedback,
  };
}

/**
 * A transcript: text exactly as stored (visitor text was masked before it was stored), the sources as links, the
 * trace reduced to engine, failure and time, and each rating with the text of the button the visitor pressed.
 * `link` gives each stored source link as it may be shown now (a file's download signed again).
 */
export function presentConversation(
  transcript: TranscriptRows,
  link: (tenantId: string, stored: string | null) => string | null,
  summaries: CaseSummary[],
): Conversation {
  const { conversation, labels } = transcript;
  const messages: TranscriptMessage[] = transcript.messages.map(({ message, feedback }) => ({
    id: message.id,
    role: message.role,
    text: message.text,
    author: message.role === 'agent' ? message.authorName : null,
    language: message.language,
    created_at: message.createdAt.toISOString(),
    fallback: message.fallback,
    sources: message.sources.map((source) => ({
      n: source.n,
      title: source.title,
      url: link(conversation.tenantId, source.url),
    })),
    trace: message.trace
      ? { engine: message.trace.engine, error: message.trace.error, ms: message.trace.ms }
      : null,
    feedback: feedback
      ? {
          rating: feedback.rating,
          label: labels[feedback.rating],
          comment: feedback.comment,
          created_at: feedback.createdAt.toISOString(),
          updated_at: feedback.updatedAt.toISOString(),
        }
      : null,
  }));
  return {
    id: conversation.id,
    bot_id: conversation.botId,
    bot_name: transcript.botName,
    origin: conversation.origin,
    country: conversation.country,
    language: conversation.language,
    started_at: conversation.startedAt.toISOString(),
    last_message_at: conversation.lastMessageAt.toISOString(),
    message_total: transcript.messageTotal,
    messages,
    summaries,
  };
}
