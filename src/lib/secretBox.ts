// Secrets at rest: AES-256-GCM with a key from the configuration (QUIRE_SECRETS_KEY)
// or, when none is set, from a key file beside the SQLite database, made on first
// use. The key never enters the database, so a copy of the database reveals nothing.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_FILE = 'secrets.key';
const VERSION = 'v1';

/** The 32-byte key: configured, or read from (else written to) dataDir/secrets.key. */
export function loadSecretsKey(config: { secretsKey?: string; dataDir: string }): Buffer {
  if (config.secretsKey) return Buffer.from(config.secretsKey, 'base64');
  const path = join(config.dataDir, KEY_FILE);
  try {
    return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(config.dataDir, { recursive: true });
  // Written whole under a name of its own, then linked into place: of two processes
  // starting at once (QUIRE_WORKERS), one links and the other reads its key, never a
  // file still being written.
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  try {
    chmodSync(draft, 0o600);
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
}

/** "v1.<iv>.<tag>.<ciphertext>", base64url parts; a fresh IV every time. */
export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The plaintext of `sealed`; throws when the key is wrong or the text was altered. */
export function unseal(key: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
