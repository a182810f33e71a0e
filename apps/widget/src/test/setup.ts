import { configure } from '@testing-library/react';

// The default 1 s wait of findBy/waitFor measures the machine, not the chat: with both cores busy with other work a
// render can take longer. A long wait costs only a failing test its time.
configure({ asyncUtilTimeout: 20_000 });
