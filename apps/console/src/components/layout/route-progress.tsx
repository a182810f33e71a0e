import '@mantine/nprogress/styles.css';
import { NavigationProgress, nprogress } from '@mantine/nprogress';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigation } from 'react-router';

/** The progress bar ticks every 300 ms. */
const PROGRESS_STEP_MS = 300;

/**
 * The top progress bar: runs while the router loads the next route (lazy chunks included) and runs to
 * its end when the navigation lands; an instant navigation still shows a short full bar.
 */
export function RouteProgress() {
  const navigation = useNavigation();
  const { key } = useLocation();
  const isBusy = navigation.state !== 'idle';
  const previous = useRef({ isBusy, key });

  useEffect(() => {
    const before = previous.current;
    previous.current = { isBusy, key };
    if (before.isBusy === isBusy && before.key === key) return;
    nprogress.start();
    if (!isBusy) nprogress.complete();
  }, [isBusy, key]);

  useEffect(() => () => nprogress.reset(), []);

  return <NavigationProgress stepInterval={PROGRESS_STEP_MS} size={3} aria-label="Loading the page" />;
}
