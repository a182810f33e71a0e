// Tests use Debian's Chromium (scripts/ensure-chromium.mjs): no dependency or script may fetch a browser.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url);
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8'));
const BROWSER_FETCHERS = /(^|\/)(puppeteer|chromedriver|electron|@sparticuz\/chromium|playwright-chromium)$/;

describe('no browser download', () => {
  const packages = Object.entries(lock.packages ?? {}).filter(
    ([name]) => name.startsWith('node_modules/') || name.includes('/node_modules/'),
  );

  it('installs no package that downloads a browser', () => {
    expect(
      packages
        .map(([name]) => name.replace(/^.*node_modules\//, ''))
        .filter((name) => BROWSER_FETCHERS.test(name)),
    ).toEqual([]);
  });

  it('runs no install script of a Playwright package', () => {
    const withScripts = packages.filter(([name, info]) => info.hasInstallScript && /playwright/.test(name));
    expect(withScripts.map(([name]) => name)).toEqual([]);
  });

  it('has no script that runs `playwright install`', () => {
    const grep = spawnSync(
      'git',
      ['grep', '-l', '-I', '-e', 'playwright install', '--', '.', ':!scripts/no-browser-download.test.mjs'],
      { cwd: root, encoding: 'utf8' },
    );
    // git grep: 0 found, 1 none found, anything else means no git checkout to search.
    if (grep.status !== 0 && grep.status !== 1) return;
    expect(grep.stdout).toBe('');
  });
});
