import { fileURLToPath } from 'node:url';

// This file sits one level below apps/server both as source (src/) and once bundled (dist/).
export const MIGRATIONS_DIR = fileURLToPath(new URL('../drizzle', import.meta.url));
export const CONSOLE_DIST_DIR = fileURLToPath(new URL('../../console/dist', import.meta.url));
export const WIDGET_DIST_DIR = fileURLToPath(new URL('../../widget/dist', import.meta.url));
