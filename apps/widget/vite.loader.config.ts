import { defineConfig, type Plugin } from 'vite';

const BOOT_TOKEN = '__OMNIBOT_BOOT__';

/**
 * The server substitutes the boot placeholder with JSON escaped for a single- or double-quoted string. The
 * minifier prints strings as template literals, where `${` would run code, so the placeholder's literal is put back
 * in single quotes, and the build fails unless the file holds exactly one placeholder in quotes.
 */
function quotedBootPlaceholder(): Plugin {
  return {
    name: 'omnibot-quoted-boot-placeholder',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        chunk.code = chunk.code.replace(/(['"`])__OMNIBOT_BOOT__\1/g, `'${BOOT_TOKEN}'`);
        if (chunk.code.split(BOOT_TOKEN).length !== 2 || !chunk.code.includes(`'${BOOT_TOKEN}'`))
          this.error(`${chunk.fileName} must contain '${BOOT_TOKEN}' exactly once, in a quoted string.`);
      }
    },
  };
}

// The loader a host page embeds with <script src=".../widget.js" data-bot="...">: one framework-free IIFE file.
export default defineConfig({
  plugins: [quotedBootPlaceholder()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    minify: true,
    lib: { entry: 'src/loader.ts', formats: ['iife'], name: 'OmnibotLoader', fileName: () => 'widget.js' },
  },
});
