import { menuRuleHolds } from '@omnibot/contracts';
import { useMemo } from 'react';
import { useMenuContext } from '../../../lib/session';
import { isSetupComplete, setupSteps } from '../utils/setup-steps';
import { useSetupProgress } from './get-setup-progress';

/** The signed-in organisation's getting-started steps, and whether all it can take are done. */
export function useSetupSteps() {
  const context = useMenuContext();
  const hasOmnirag = menuRuleHolds('omnirag', context);
  const progress = useSetupProgress({ hasOmnirag, consoleOrigin: window.location.origin });
  const steps = useMemo(
    () => (progress.data ? setupSteps(progress.data, { hasOmnirag }) : null),
    [progress.data, hasOmnirag],
  );
  return { progress, steps, isComplete: steps ? isSetupComplete(steps) : false };
}
