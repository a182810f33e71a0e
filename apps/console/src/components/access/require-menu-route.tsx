import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useVisibleMenu } from '../../lib/menu';
import { ErrorPage } from '../errors/error-page';
import { isMenuRouteVisible } from './menu-route';

/** The page shown instead of one the menu does not offer this user. */
export function NoAccess() {
  return (
    <ErrorPage
      code="403"
      title="You do not have access to this page"
      actions={
        <Button component={Link} to={paths.home} variant="light">
          Back to home
        </Button>
      }
    >
      Your role or your organisation's subscriptions do not include it. Ask your administrator if you need it.
    </ErrorPage>
  );
}

/**
 * Shows `children` only to users whose menu (visibleMenu: tenant level, role, subscriptions) offers `route`;
 * everybody else sees NoAccess. The server enforces the real rules; this keeps the console consistent with them.
 */
export function RequireMenuRoute({ route, children }: { route: string; children: ReactNode }) {
  const { entries } = useVisibleMenu();
  return isMenuRouteVisible(entries, route) ? children : <NoAccess />;
}
