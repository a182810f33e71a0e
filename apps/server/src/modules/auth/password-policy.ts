import { PASSWORD_MIN_LENGTH, PASSWORD_MIN_SCORE } from '@omnibot/contracts';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';

let factory: ZxcvbnFactory | undefined;

function zxcvbn() {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEn.translations,
  });
  return factory;
}

/** At least 10 characters and a zxcvbn score of 3 or more, judged with the user's own e-mail and name. */
export function isStrongPassword(password: string, userInputs: string[] = []): boolean {
  if (password.length < PASSWORD_MIN_LENGTH) return false;
  return zxcvbn().check(password, userInputs).score >= PASSWORD_MIN_SCORE;
}
