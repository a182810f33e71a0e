import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Every route change scrolls the page to the top. */
export function ScrollToTop() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
  }, [pathname, search]);
  return null;
}
