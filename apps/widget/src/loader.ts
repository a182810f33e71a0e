import { readBoot } from './loader/boot';
import { startLoader } from './loader/start';

// The server serving /widget.js?bot=<id> replaces this placeholder (the only copy in the built file) with the
// bot's boot JSON, so the launcher draws without a second round trip.
const embedded = '__OMNIBOT_BOOT__';

void startLoader(document.currentScript, readBoot(embedded));
