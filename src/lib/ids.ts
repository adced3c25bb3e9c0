// Opaque random identifiers and secrets.
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 20-character id (about 119 random bits): unguessable, so it may double as a link secret. */
export function newId(length = 20): string {
  const bytes = randomBytes(length * 2);
  let id = '';
  for (let i = 0; i < bytes.length && id.length < length; i++) {
    // 248 is the largest multiple of 62 below 256: rejecting above it keeps every character equally likely.
    if (bytes[i] < 248) id += ALPHABET[bytes[i] % 62];
  }
  return id.length === length ? id : newId(length);
}

/** A new API token: 32 random bytes, shown once to its owner. */
export function newApiToken(): string {
  return `quire_${randomBytes(32).toString('base64url')}`;
}

/** Tokens are stored only as their SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
