import type { CreateBotTestCaseBody } from '@omnibot/contracts';

/** What the test case form holds: empty strings for expectations left out. */
export interface CaseValues {
  question: string;
  expected_text: string;
  expected_source_id: string;
}

/** The body a form's values stand for: empty expectations are left out (null). */
export function caseBodyOf(values: CaseValues): CreateBotTestCaseBody {
  return {
    question: values.question,
    expected_text: values.expected_text.trim() === '' ? null : values.expected_text,
    expected_source_id: values.expected_source_id === '' ? null : values.expected_source_id,
  };
}
