// Makes sure Debian's Chromium is there for the end-to-end tests; no test tool downloads its own browser.
// Uses CHROMIUM_PATH when set, else /usr/bin/chromium; installs the `chromium` package with apt when it can.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const DEFAULT_PATH = '/usr/bin/chromium';
const chromiumPath = process.env.CHROMIUM_PATH || DEFAULT_PATH;

function version(executable) {
  // Debian's wrapper script prints a harmless shell warning on stderr; keep stdout only.
  const result = spawnSync(executable, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 0 ? result.stdout.trim() : null;
}

function report(executable) {
  const found = version(executable);
  if (!found) {
    console.error(`ensure-chromium: ${executable} exists but \`${executable} --version\` failed.`);
    process.exit(1);
  }
  console.log(`ensure-chromium: ${found} at ${executable}`);
  process.exit(0);
}

function fail(message) {
  console.error(`ensure-chromium: ${message}`);
  console.error(
    "The end-to-end tests need Debian's `chromium` package: run `sudo apt-get install -y chromium`,\n" +
      'or point CHROMIUM_PATH at a Chromium/Chrome executable. Playwright must not download its own browser.',
  );
  process.exit(1);
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function privilegePrefix() {
  if (process.getuid?.() === 0) return [];
  if (hasCommand('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0)
    return ['sudo', '-n'];
  return null;
}

if (existsSync(chromiumPath)) report(chromiumPath);
if (process.env.CHROMIUM_PATH) fail(`CHROMIUM_PATH is set to ${chromiumPath}, which does not exist.`);
if (process.platform !== 'linux' || !hasCommand('apt-get'))
  fail(`${DEFAULT_PATH} is missing and apt-get is not available.`);
const prefix = privilegePrefix();
if (!prefix) fail(`${DEFAULT_PATH} is missing and installing it needs root (or passwordless sudo).`);

const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['apt-get', 'update'],
  ['apt-get', 'install', '-y', 'chromium'],
]) {
  const command = [...prefix, ...args];
  console.log(`ensure-chromium: ${DEFAULT_PATH} is missing; running \`${command.join(' ')}\``);
  try {
    execFileSync(command[0], command.slice(1), { stdio: 'inherit', env });
  } catch {
    fail(`\`${command.join(' ')}\` failed.`);
  }
}
if (!existsSync(DEFAULT_PATH))
  fail(`the chromium package was installed but ${DEFAULT_PATH} is still missing.`);
report(DEFAULT_PATH);
