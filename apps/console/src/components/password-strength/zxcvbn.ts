import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';
import type { PasswordCheck } from './password-strength';

// Only ever imported dynamically (password-strength.ts): the dictionaries are large and stay in their own chunk.

/** The same zxcvbn-ts set-up as the server's policy: common and English dictionaries. */
export function createPasswordChecker() {
  const factory = new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEn.translations,
  });
  return (password: string, userInputs: string[]): PasswordCheck => {
    const { score, feedback } = factory.check(password, userInputs);
    return { score, warning: feedback.warning, suggestions: feedback.suggestions };
  };
}
