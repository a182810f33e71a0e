import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, prettyLogStream } from './log-format';
import { createTestApp } from './test/app';
import { defined } from './test/defined';

describe('log format', () => {
  it('is readable on a terminal and JSON everywhere else, unless LOG_FORMAT says otherwise', () => {
    expect(chooseLogFormat('auto', true)).toBe('pretty');
    expect(chooseLogFormat('auto', false)).toBe('json');
    expect(chooseLogFormat('auto', undefined)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });

  it('prints the one-time password line of a first start in plain words', async () => {
    const t = await createTestApp({ env: { ADMIN_PASSWORD: '', ADMIN_EMAIL: 'root@ops.example.org' } });
    try {
      const entry = defined(t.logs.find((line) => typeof line.oneTimePassword === 'string'));
      const password = String(entry.oneTimePassword);
      let text = '';
      const terminal = new Writable({
        write(chunk: Buffer, _encoding, done) {
          text += chunk.toString('utf8');
          done();
        },
      });
      const stream = prettyLogStream(terminal, false);
      stream.end(`${JSON.stringify(entry)}\n`);
      await new Promise((resolve) => stream.on('finish', resolve));

      const [line = '', ...rest] = text.trimEnd().split('\n');
      expect(rest).toEqual([]);
      expect(line).toMatch(
        /^\[\d{2}:\d{2}:\d{2}\] WARN: created the master user: sign in as root@ops\.example\.org/,
      );
      expect(line).toContain(`with the one-time password ${password} (you must change it at first sign-in)`);
      expect(line.startsWith('{')).toBe(false);
    } finally {
      await t.close();
    }
  });
});
