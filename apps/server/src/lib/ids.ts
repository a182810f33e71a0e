import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijkmnopqrstuvwxyz23456789';

/** A short, URL-safe, unambiguous identifier (no 0/o, 1/l); 12 characters = ~60 bits. */
export function shortId(length = 12): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}
