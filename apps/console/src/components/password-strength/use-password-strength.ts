import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import {
  loadedPasswordChecker,
  loadPasswordChecker,
  type PasswordCheck,
  type PasswordChecker,
} from './password-strength';

type PasswordStrength =
  { status: 'loading' } | { status: 'unavailable' } | ({ status: 'ready' } & PasswordCheck);

/** The live zxcvbn verdict on `password`; loads the checker on first use. */
export function usePasswordStrength(password: string, userInputs: string[]): PasswordStrength {
  const [checker, setChecker] = useState<PasswordChecker | null>(loadedPasswordChecker);
  const [failed, setFailed] = useState(false);
  const deferred = useDeferredValue(password);
  const inputsKey = userInputs.filter(Boolean).join('\n');

  useEffect(() => {
    if (checker) return;
    let active = true;
    loadPasswordChecker().then(
      (loaded) => active && setChecker(() => loaded),
      () => active && setFailed(true),
    );
    return () => {
      active = false;
    };
  }, [checker]);

  return useMemo<PasswordStrength>(() => {
    if (checker) return { status: 'ready', ...checker(deferred, inputsKey ? inputsKey.split('\n') : []) };
    return failed ? { status: 'unavailable' } : { status: 'loading' };
  }, [checker, failed, deferred, inputsKey]);
}
