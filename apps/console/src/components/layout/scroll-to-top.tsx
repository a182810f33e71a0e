import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Spec section 2: every route change scrolls the page to the top. */
export function ScrollToTop() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
  }, [pathname, search]);
  return null;
}
