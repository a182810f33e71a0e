import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Encrypts and decrypts small secrets at rest (API keys, integration tokens) for one purpose. */
export interface SecretBox {
  encrypt(plaintext: string): string;
  /** Throws SecretBoxError when the value was altered, made for another purpose or under another secret. */
  decrypt(sealed: string): string;
}

export class SecretBoxError extends Error {
  constructor(message = 'The stored secret cannot be decrypted.') {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/**
 * AES-256-GCM under a key derived with HKDF-SHA256 from the installation secret and a fixed per-purpose label,
 * so a value sealed for one purpose never opens under another. Output: `v1:` + base64url(iv | tag | ciphertext).
 */
export function createSecretBox(installationSecret: string, purpose: string): SecretBox {
  if (installationSecret.length === 0) throw new Error('the installation secret is empty');
  const key = Buffer.from(
    hkdfSync('sha256', installationSecret, 'omnibot secret-box', `omnibot/${purpose}`, 32),
  );
  return {
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
    },
    decrypt(sealed) {
      const [version, body, ...rest] = sealed.split(':');
      if (version !== VERSION || body === undefined || rest.length > 0 || !/^[\w-]+$/.test(body)) {
        throw new SecretBoxError('The stored secret has an unknown format.');
      }
      const bytes = Buffer.from(body, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError();
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SecretBoxError();
      }
    },
  };
}
