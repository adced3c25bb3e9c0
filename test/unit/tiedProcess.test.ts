// The shell that ties the integration runtime to Quire's life (sandbox/workerd.ts): it
// owns the runtime's folder from before the scripts are written, so no way Quire ends
// leaves the folder or the runtime behind.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnTiedToThisProcess } from '../../src/sandbox/workerd.ts';

const closed = (child: { once(event: 'close', listener: () => void): unknown }) => new Promise<void>((resolve) => child.once('close', resolve));

describe.skipIf(process.platform === 'win32')('a process tied to Quire', () => {
  it('removes its folder and never starts when Quire lets go before it began, as when Quire dies while writing the scripts', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-tied-'));
    writeFileSync(join(folder, 'script-0.js'), 'half written');
    const started = join(folder, '..', `${folder.split('/').pop()}-started`);
    const tied = spawnTiedToThisProcess('touch', [started], folder);
    tied.release();
    await closed(tied.child);
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(started)).toBe(false);
  });

  it('starts once told to begin, and removes its folder when Quire lets go', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-tied-'));
    const started = join(folder, 'started');
    const tied = spawnTiedToThisProcess('/bin/sh', ['-c', `touch ${started}; exec sleep 30`], folder);
    tied.begin();
    for (let attempt = 0; attempt < 200 && !existsSync(started); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(existsSync(started)).toBe(true);
    tied.release();
    await closed(tied.child);
    for (let attempt = 0; attempt < 200 && existsSync(folder); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(existsSync(folder)).toBe(false);
  });
});
