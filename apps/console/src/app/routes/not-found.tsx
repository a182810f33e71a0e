import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorPage } from '../../components/errors/error-page';
import { paths } from '../../config/paths';

/** Any path no route claims shows this error page. */
export function Component() {
  return (
    <ErrorPage
      code="404"
      title="Page not found"
      actions={
        <Button component={Link} to={paths.home}>
          Back to home
        </Button>
      }
    >
      The page you are looking for does not exist or has moved. Use the menu or the menu search to find what
      you need.
    </ErrorPage>
  );
}
