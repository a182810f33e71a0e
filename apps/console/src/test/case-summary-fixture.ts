import { type CaseSummary, caseSummaryText } from '@omnibot/contracts';

/** One unbroken run of characters longer than a phone is wide: it wraps only where wrapping may break anything. */
export const UNBROKEN = `ORDER-${'7'.repeat(120)}`;

/** A card number and an e-mail address as the bot's masking leaves them: one mask character for each character. */
export const MASKED_CARD = '*'.repeat('4111 1111 1111 1111'.length);
export const MASKED_EMAIL = '*'.repeat('jane.doe@example.com'.length);

/** A summary written at hand-over from the transcript, with the card number and the e-mail address masked. */
export function makeCaseSummary(overrides: Partial<CaseSummary> = {}): CaseSummary {
  const sections = overrides.sections ?? {
    issue: `My card ${MASKED_CARD} was charged twice for order 5521.`,
    answers: 'Double charges are refunded within five working days.',
    open: `"Can you send the confirmation to ${MASKED_EMAIL}?" The visitor asked for a person.`,
    sentiment: 'negative' as const,
  };
  return {
    id: 'cs-1',
    conversation_id: 'conversation-1',
    trigger: 'handover',
    method: 'extractive',
    model_name: null,
    created_at: '2026-01-01T10:03:00.000Z',
    ...overrides,
    sections,
    text: overrides.text ?? caseSummaryText(sections),
  };
}
