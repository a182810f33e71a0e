import { Center, Loader } from '@mantine/core';
import { menuRuleHolds } from '@omnibot/contracts';
import { Navigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useSetupSteps } from '../../../features/getting-started/api/use-setup-steps';
import { useMenuContext } from '../../../lib/session';

/**
 * Where sign-in lands: the getting-started page while the organisation has steps left that this user can take,
 * the integrations overview once they are done (or when the progress cannot be read, or for an agent).
 */
function Landing() {
  const { progress, isComplete } = useSetupSteps();
  if (progress.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Opening the console" />
      </Center>
    );
  }
  const to = progress.isError || isComplete ? paths.integrations : paths.gettingStarted;
  return <Navigate to={to} replace />;
}

export function Component() {
  const context = useMenuContext();
  if (!menuRuleHolds('gettingStarted', context)) return <Navigate to={paths.integrations} replace />;
  return <Landing />;
}
