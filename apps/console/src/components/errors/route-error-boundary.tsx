import { Button, Group } from '@mantine/core';
import { Link, useRouteError } from 'react-router';
import { paths } from '../../config/paths';
import { isChunkLoadError } from '../../lib/preload-error';
import { ErrorPage } from './error-page';

const reload = () => window.location.reload();

/**
 * Route error boundary. A failed lazy chunk almost always means a newer deploy replaced it, so the
 * user is offered a reload; any other error gets a generic message.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();

  if (isChunkLoadError(error)) {
    return (
      <ErrorPage title="A new version is available" actions={<Button onClick={reload}>Reload</Button>}>
        This page could not be loaded because the console was updated. Reload to get the new version.
      </ErrorPage>
    );
  }

  return (
    <ErrorPage
      title="Something went wrong"
      actions={
        <Group justify="center">
          <Button onClick={reload}>Reload</Button>
          <Button component={Link} to={paths.home} variant="default">
            Back to home
          </Button>
        </Group>
      }
    >
      An unexpected error stopped this page. Reloading usually helps; if it keeps happening, tell your
      administrator what you were doing.
    </ErrorPage>
  );
}
