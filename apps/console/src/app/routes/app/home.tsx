import { Navigate } from 'react-router';
import { paths } from '../../../config/paths';

// Until sign-in lands (next issue), `/` has no page of its own.
export function Component() {
  return <Navigate to={paths.menuSearch.path} replace />;
}
