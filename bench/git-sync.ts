// Git Sync of a 500-page repository with assets (~2 KB of GitBook markdown per page,
// links between pages, 60 images of ~300 KB: 18 MB in all), served by git's own
// http-backend on this machine. Measured in the same run: the import through the API
// (to the end of its job) beside `git clone --depth 1` of the same repository (the
// transport alone, in C), the server's peak memory during the import beside its idle
// size, and an export of the imported space to a new branch.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGitServer } from '../test/helpers/gitServer.ts';
import { apiCaller, runCli, startServerProcess, stop, type BenchDatabase } from './support.ts';

export interface GitSyncResult {
  pages: number;
  assetBytes: number;
  importMs: number;
  cloneMs: number;
  exportMs: number;
  idleRssMb: number;
  peakRssMb: number;
}

const PAGES = 500;
const FOLDERS = 25;
const IMAGES = 60;
const IMAGE_BYTES = 300 * 1024;

function page(index: number): string {
  const next = (index + 1) % PAGES;
  const folder = (at: number) => `topic-${Math.floor(at / (PAGES / FOLDERS))}`;
  const link = folder(next) === folder(index) ? `page-${next}.md` : `../${folder(next)}/page-${next}.md`;
  const image = index % Math.ceil(PAGES / IMAGES) === 0 ? `\n<figure><img src="../.gitbook/assets/image ${Math.floor(index / Math.ceil(PAGES / IMAGES))}.png" alt=""><figcaption></figcaption></figure>\n` : '';
  return [
    `# Page ${index}`,
    '',
    `Page ${index} explains one part of the product, then sends readers [on to the next page](${link}).`,
    '',
    '## How it works',
    '',
    `The service keeps **${index} items** in a queue and works through them in order. Each item carries an _owner_, a \`deadline\` and a state.`,
    '',
    '{% hint style="info" %}',
    'Items past their deadline are retried once, then reported.',
    '{% endhint %}',
    image,
    '```bash',
    `quire run --page ${index} --retries 1`,
    '```',
    '',
    '| Setting | Default |',
    '| ------- | ------- |',
    '| retries | 1 |',
    `| batch | ${index % 50} |`,
    '',
    '* First, read the overview.',
    '* Then, try the example above.',
    '',
  ].join('\n');
}

/** The repository's files: SUMMARY.md, a README per folder, pages, and images in .gitbook/assets. */
function repository(): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = { 'README.md': '# Handbook\n\nEverything about the product.\n' };
  const summary = ['# Table of contents', '', '* [Handbook](README.md)'];
  const perFolder = PAGES / FOLDERS;
  for (let folder = 0; folder < FOLDERS; folder++) {
    files[`topic-${folder}/README.md`] = `# Topic ${folder}\n\nPages ${folder * perFolder} to ${(folder + 1) * perFolder - 1}.\n`;
    summary.push(`* [Topic ${folder}](topic-${folder}/README.md)`);
    for (let index = folder * perFolder; index < (folder + 1) * perFolder; index++) {
      files[`topic-${folder}/page-${index}.md`] = page(index);
      summary.push(`  * [Page ${index}](topic-${folder}/page-${index}.md)`);
    }
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  for (let image = 0; image < IMAGES; image++) files[`.gitbook/assets/image ${image}.png`] = randomBytes(IMAGE_BYTES);
  return files;
}

/** Resident set size of a process, now and at its peak, in MB (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

export async function benchGitSync(database: BenchDatabase): Promise<GitSyncResult> {
  const git = await startGitServer();
  const files = repository();
  git.commit(files, 'A large handbook');
  const boot = await runCli(['admin', 'bootstrap', '--org', 'Git', '--email', 'git@bench.test', '--name', 'G', '--json'], database.env);
  const { token, organization } = JSON.parse(boot.stdout);
  const server = await startServerProcess({ ...database.env, LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0', QUIRE_ALLOW_PRIVATE_URLS: 'true' }, [], { asNpmStart: true });
  const call = apiCaller(server, token);
  const until = async (spaceId: string) => {
    for (;;) {
      const info = await call('GET', `/v1/spaces/${spaceId}/git/info`);
      if (info.operation.state === 'failure') throw new Error(`git sync failed: ${info.operation.error}`);
      if (info.operation.state === 'success') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    const clone = mkdtempSync(join(tmpdir(), 'quire-bench-clone-'));
    let started = performance.now();
    // Not execFileSync: the git server answers from this very process.
    await promisify(execFile)('git', ['clone', '-q', '--depth', '1', git.url, clone]);
    const cloneMs = performance.now() - started;
    rmSync(clone, { recursive: true, force: true });

    const space = await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Handbook' });
    const idle = memoryOf(server.child.pid!);
    started = performance.now();
    await call('POST', `/v1/spaces/${space.id}/git/import`, { url: git.url, ref: 'refs/heads/main' });
    await until(space.id);
    const importMs = performance.now() - started;
    const peak = memoryOf(server.child.pid!).peak;
    const pages = JSON.stringify(await call('GET', `/v1/spaces/${space.id}/content/pages`)).match(/"type":"document"/g)?.length ?? 0;

    started = performance.now();
    await call('POST', `/v1/spaces/${space.id}/git/export`, { url: git.url, ref: 'refs/heads/exported', commitMessage: 'Export' });
    await until(space.id);
    const exportMs = performance.now() - started;
    return {
      pages,
      assetBytes: IMAGES * IMAGE_BYTES,
      importMs,
      cloneMs,
      exportMs,
      idleRssMb: idle.rss,
      peakRssMb: peak,
    };
  } finally {
    await stop(server.child);
    await git.close();
  }
}
