import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSecretsKey, seal, unseal } from '../../src/lib/secretBox.ts';

describe('sealed secrets', () => {
  const key = Buffer.alloc(32, 1);

  it('opens what it sealed, with a fresh IV each time', () => {
    const first = seal(key, '{"token":"s3cret"}');
    const second = seal(key, '{"token":"s3cret"}');
    expect(first).not.toBe(second);
    expect(first).not.toContain('s3cret');
    expect(unseal(key, first)).toBe('{"token":"s3cret"}');
  });

  it('refuses a wrong key and any altered byte', () => {
    const sealed = seal(key, 'secret');
    expect(() => unseal(Buffer.alloc(32, 2), sealed)).toThrow();
    const [version, iv, tag, ciphertext] = sealed.split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    expect(() => unseal(key, [version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => unseal(key, 'not sealed')).toThrow();
  });

  it('makes a key file readable by its owner only, once, and reuses it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-key-'));
    const made = loadSecretsKey({ dataDir });
    expect(made).toHaveLength(32);
    expect(statSync(join(dataDir, 'secrets.key')).mode & 0o777).toBe(0o600);
    expect(loadSecretsKey({ dataDir }).equals(made)).toBe(true);
    expect(loadSecretsKey({ dataDir, secretsKey: key.toString('base64') }).equals(key)).toBe(true);
    expect(readdirSync(dataDir)).toEqual(['secrets.key']);
  });

  it('gives processes that start at once the same key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-key-'));
    const module = fileURLToPath(new URL('../../src/lib/secretBox.ts', import.meta.url));
    const script = `import(${JSON.stringify(module)}).then((m) => console.log(m.loadSecretsKey({ dataDir: ${JSON.stringify(dataDir)} }).toString('base64')))`;
    const keys = await Promise.all(
      Array.from({ length: 6 }, () =>
        new Promise<string>((resolve, reject) =>
          execFile(process.execPath, ['--import', 'tsx', '-e', script], (error, stdout) => (error ? reject(error) : resolve(stdout.trim()))),
        ),
      ),
    );
    expect(Buffer.from(keys[0], 'base64')).toHaveLength(32);
    expect(new Set(keys).size).toBe(1);
    expect(readdirSync(dataDir)).toEqual(['secrets.key']);
  });
});
