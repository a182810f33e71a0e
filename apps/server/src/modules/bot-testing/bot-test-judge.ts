import type { AnswerSource } from '@omnibot/contracts';
import type { BotTestCaseRow } from '../../db/schema';
import type { BotReply } from '../bots/bot-engine';

/** Text compared without regard to case, Unicode compatibility forms or runs of whitespace. */
export const normaliseForJudging = (text: string) =>
  text.normalize('NFKC').toLocaleLowerCase('en').replace(/\s+/g, ' ').trim();

/**
 * Whether an answer passes a case: it contains the expected text (case- and whitespace-insensitive) and cites a
 * source with the expected source id, for whichever of the two the case gives; the reason says what was missing.
 */
export function judge(
  testCase: Pick<BotTestCaseRow, 'expectedText' | 'expectedSourceId'>,
  reply: Pick<BotReply, 'messages' | 'sources' | 'fallback' | 'trace'>,
  sourceTitle: (id: string) => string,
): { answer: string; pass: boolean; reason: string; citedSourceIds: string[] } {
  const answer = reply.messages.map((message) => message.text).join('\n\n');
  const cited = [...new Set(reply.sources.map((source: AnswerSource) => source.source_id))];
  const failures: string[] = [];
  const passes: string[] = [];
  if (testCase.expectedText !== null) {
    if (normaliseForJudging(answer).includes(normaliseForJudging(testCase.expectedText))) {
      passes.push('contains the expected text');
    } else {
      failures.push(`does not contain "${testCase.expectedText}"`);
    }
  }
  if (testCase.expectedSourceId !== null) {
    const title = sourceTitle(testCase.expectedSourceId);
    if (cited.includes(testCase.expectedSourceId)) {
      passes.push(`cites ${title}`);
    } else {
      failures.push(cited.length === 0 ? `cites no source (expected ${title})` : `does not cite ${title}`);
    }
  }
  const pass = failures.length === 0;
  let reason = `The answer ${(pass ? passes : failures).join(' and ')}.`;
  if (!pass && reply.fallback) {
    reason += ' The bot gave its fallback text';
    reason += reply.trace.error ? `: ${reply.trace.error.reason}` : '.';
  }
  return { answer, pass, reason, citedSourceIds: cited };
}
