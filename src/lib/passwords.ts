// Password hashing with scrypt (node:crypto), stored as `scrypt$N$r$p$salt$hash`
// (salt and hash in base64url) so that stronger parameters can come later and
// passwords hashed before still verify with theirs.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** 2^15 × r 8: 32 MiB and about 0.1 s per hash here, OWASP's floor for scrypt with p 1. */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 8;
/** scrypt hashes the whole password: a megabyte of it would cost as much as a short one, but the body limit is far above any real password. */
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  // Node refuses above 32 MiB by default, which N 2^15 r 8 just passes.
  const options: ScryptOptions = { N: n, r, p, maxmem: 256 * n * r + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether the password is the one hashed; a malformed hash verifies nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/**
 * Checks a password against nothing, as long as a real check takes: an unknown e-mail
 * must cost what a wrong password does, or timing would tell which addresses have
 * accounts.
 */
export async function verifyNoPassword(password: string): Promise<false> {
  dummy ??= hashPassword('not anyone\'s password');
  await verifyPassword(password, await dummy);
  return false;
}
