import { AUTH_MESSAGES, PASSWORD_MIN_LENGTH, PASSWORD_MIN_SCORE } from '@omnibot/contracts';

export interface PasswordCheck {
  /** zxcvbn score, 0 (too guessable) to 4 (very unguessable). */
  score: number;
  warning: string | null;
  suggestions: string[];
}

export type PasswordChecker = (password: string, userInputs: string[]) => PasswordCheck;

let checker: PasswordChecker | null = null;
let loading: Promise<PasswordChecker> | null = null;

/** Loads zxcvbn-ts and its dictionaries in a separate chunk, once; a failed load may be tried again. */
export function loadPasswordChecker(): Promise<PasswordChecker> {
  loading ??= import('./zxcvbn')
    .then(({ createPasswordChecker }) => (checker = createPasswordChecker()))
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}

/** The checker when it has loaded, else null (the server checks every password anyway). */
export const loadedPasswordChecker = (): PasswordChecker | null => checker;

/** The server's rule: at least 10 characters and a score of 3 or more, judged with the user's e-mail and name. */
export function weakPasswordError(password: string, userInputs: string[]): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters`;
  const check = checker?.(password, userInputs.filter(Boolean));
  return check && check.score < PASSWORD_MIN_SCORE ? AUTH_MESSAGES.weakPassword : null;
}
