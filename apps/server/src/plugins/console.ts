import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../env';
import { registerBuiltFiles } from './compression';
import { isApiPath } from './errors';

/** The console's public configuration, handed to the SPA in a meta tag (no inline script, strict CSP). */
function consoleConfig(env: Env) {
  return { productName: env.PRODUCT_NAME, companyName: env.COMPANY_NAME, environment: env.ENVIRONMENT_BADGE };
}

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Serves the built console: hashed assets with long caching (precompressed), and index.html for every non-API GET
 * (SPA fallback). API paths always get JSON 404s, never the SPA.
 */
export async function registerConsole(app: FastifyInstance, env: Env, consoleDir: string | null) {
  const indexFile = consoleDir ? path.join(consoleDir, 'index.html') : null;
  const hasConsole = consoleDir !== null && indexFile !== null && existsSync(indexFile);
  if (!hasConsole) app.log.warn({ consoleDir }, 'console build not found: only the API is served');

  let indexHtml = '';
  if (hasConsole) {
    const meta = `<meta name="omnibot-config" content="${escapeAttribute(JSON.stringify(consoleConfig(env)))}" />`;
    indexHtml = readFileSync(indexFile, 'utf8')
      .replace('<!--omnibot-config-->', meta)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeAttribute(env.PRODUCT_NAME)} Admin</title>`);
    await registerBuiltFiles(app, {
      root: consoleDir,
      prefix: '/',
      wildcard: false,
      cacheControl: (filePath) =>
        filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (hasConsole && wantsPage && !isApiPath(request.url)) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    }
    return reply
      .status(404)
      .send({ code: 'not_found', message: `No route for ${request.method} ${request.url.split('?')[0]}` });
  });
}
