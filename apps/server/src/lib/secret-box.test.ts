import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretBoxError } from './secret-box';

const SECRET = 'installation-secret-for-tests-0123456789';

describe('secret box', () => {
  const box = createSecretBox(SECRET, 'model-api-key');

  it('round-trips text, empty and non-ASCII included, and never shows the plaintext', () => {
    for (const plaintext of ['sk-live-abcdef123456', '', 'clé 🔑 ключ', 'x'.repeat(5000)]) {
      const sealed = box.encrypt(plaintext);
      expect(sealed).toMatch(/^v1:[\w-]+$/);
      if (plaintext.length > 0) expect(sealed).not.toContain(plaintext);
      expect(box.decrypt(sealed)).toBe(plaintext);
    }
  });

  it('uses a fresh IV each time: the same plaintext seals differently', () => {
    const sealed = new Set(Array.from({ length: 200 }, () => box.encrypt('same key')));
    expect(sealed.size).toBe(200);
    const ivs = new Set(
      [...sealed].map((value) => Buffer.from(value.slice(3), 'base64url').subarray(0, 12).toString('hex')),
    );
    expect(ivs.size).toBe(200);
  });

  it('refuses any altered byte, a truncated value and foreign formats', () => {
    const sealed = box.encrypt('sk-tamper-me');
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    for (let index = 0; index < bytes.length; index += 1) {
      const altered = Buffer.from(bytes);
      altered[index] = (altered[index] ?? 0) ^ 0x01;
      expect(() => box.decrypt(`v1:${altered.toString('base64url')}`)).toThrow(SecretBoxError);
    }
    expect(() => box.decrypt(`v1:${bytes.subarray(0, 20).toString('base64url')}`)).toThrow(SecretBoxError);
    for (const foreign of ['', 'v1:', 'v2:' + sealed.slice(3), sealed.slice(3), `${sealed}:x`, 'v1:***']) {
      expect(() => box.decrypt(foreign)).toThrow(SecretBoxError);
    }
  });

  it('refuses a value sealed under another installation secret or for another purpose', () => {
    const sealed = box.encrypt('sk-other');
    expect(() => createSecretBox('another-installation-secret', 'model-api-key').decrypt(sealed)).toThrow(
      SecretBoxError,
    );
    expect(() => createSecretBox(SECRET, 'widget-secret').decrypt(sealed)).toThrow(SecretBoxError);
    expect(createSecretBox(SECRET, 'model-api-key').decrypt(sealed)).toBe('sk-other');
  });
});
