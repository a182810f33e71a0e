import { createGuardedWebFetch } from '../lib/guarded-http/guarded-fetch';

/** The test-only allowance: the local provider servers of these tests listen on the loopback address. */
export const TEST_FETCH_ALLOW = '127.0.0.1';

/** The guarded client model calls go through in tests, with loopback opened for the local provider servers. */
export const loopbackModelFetch = createGuardedWebFetch({ allowAddresses: [TEST_FETCH_ALLOW] });
