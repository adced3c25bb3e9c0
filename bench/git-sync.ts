// Git Sync of a 500-page repository with assets (~2 KB of GitBook markdown per page,
// links between pages, 60 images of ~300 KB: 18 MB in all), served by git's own
// http-backend on this machine. Measured in the same run: the import through the API
// (to the end of its job) beside `git clone --depth 1` of the same repository (the
// transport alone, in C), the server's peak memory during the import beside its idle
// size, and an export of the imported space to a new branch. Then benchGitPush (below):
// what a push costs a 1,000-page space, from its webhook to the merged revision
// (BENCH_GIT_PUSHES pushes, default 6).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GIT_TOKEN, GIT_USER, startGitServer } from '../test/helpers/gitServer.ts';
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

function page(index: number, pages = PAGES): string {
  const next = (index + 1) % pages;
  const folder = (at: number) => `topic-${Math.floor(at / (pages / FOLDERS))}`;
  const link = folder(next) === folder(index) ? `page-${next}.md` : `../${folder(next)}/page-${next}.md`;
  const image = index % Math.ceil(pages / IMAGES) === 0 ? `\n<figure><img src="../.gitbook/assets/image ${Math.floor(index / Math.ceil(pages / IMAGES))}.png" alt=""><figcaption></figcaption></figure>\n` : '';
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
function repository(pages = PAGES): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = { 'README.md': '# Handbook\n\nEverything about the product.\n' };
  const summary = ['# Table of contents', '', '* [Handbook](README.md)'];
  const perFolder = pages / FOLDERS;
  for (let folder = 0; folder < FOLDERS; folder++) {
    files[`topic-${folder}/README.md`] = `# Topic ${folder}\n\nPages ${folder * perFolder} to ${(folder + 1) * perFolder - 1}.\n`;
    summary.push(`* [Topic ${folder}](topic-${folder}/README.md)`);
    for (let index = folder * perFolder; index < (folder + 1) * perFolder; index++) {
      files[`topic-${folder}/page-${index}.md`] = page(index, pages);
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

// ─── A push: from the webhook's receipt to the merged revision ──────────────────────
//
// A 1,000-page repository (the pages above, 40 a folder, with the same 60 images)
// imported once; then, PUSHES times, one page changed in a commit by the git binary and
// pushed, and the space's webhook called as GitHub calls it (X-GitHub-Event: push,
// X-Hub-Signature-256 over the body with the secret from git/info). Timed from sending
// the webhook until git/info (polled every POLL_MS) names the pushed commit with its
// operation a success: that row is set in the transaction that merges the import, so
// the space's revision holds the change then (checked after, untimed, by reading the
// page). Polling is off (QUIRE_GIT_SYNC_POLL=0), so only the webhook brings a push in.
//
// Measured in the same run: the same kind of push brought in by POST …/git/import
// instead of the webhook (every other push, interleaved), the same one-page change
// written and merged through a change request, and `git clone --depth 1` of the
// repository (the transport alone, in C). Quire reaches the git server through a proxy
// in this process that times each request, so a push's time splits into: to the
// operation (the webhook's answer and the pull job), to the first git request, the
// transfer, reading and storing the imported revision (to its createdAt), the merge
// (to the operation's endedAt) and the poll that saw it.

const PUSH_PAGES = 1000;
const PUSHES = Number(process.env.BENCH_GIT_PUSHES ?? 6);
const POLL_MS = 10;

/** Wall-clock milliseconds with a fraction, comparable with the server's ISO timestamps. */
const wallNow = () => performance.timeOrigin + performance.now();

interface ProxiedRequest {
  start: number;
  end: number;
  what: string;
  bytes: number;
}

/** An HTTP proxy in front of the git server that records when each request started and ended. */
async function timingProxy(bareUrl: string): Promise<{ url: string; requests: ProxiedRequest[]; close: () => Promise<void> }> {
  const upstream = new URL(bareUrl);
  const requests: ProxiedRequest[] = [];
  const server = createServer((request, response) => {
    const record: ProxiedRequest = { start: wallNow(), end: 0, what: `${request.method} ${request.url}`, bytes: 0 };
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => (record.bytes += chunk.length));
      answer.pipe(response);
    });
    forward.on('error', (error) => response.destroy(error));
    request.pipe(forward);
    response.on('close', () => {
      record.end = wallNow();
      requests.push(record);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${GIT_USER}:${GIT_TOKEN}@127.0.0.1:${port}${upstream.pathname}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface PushPhases {
  /** From sending the webhook (or the import request) to the operation starting. */
  toOperation: number;
  /** From the operation starting to its first request to the git server. */
  toFirstRequest: number;
  /** From the first request to the git server to the end of the last answer. */
  transfer: number;
  /** From the last answer to the imported revision's createdAt: the pack indexed, the tree read, changed pages converted, the revision stored. */
  readAndStore: number;
  /** From the revision's createdAt to the operation's endedAt: the merge into the space. */
  merge: number;
  /** From the operation's endedAt to git/info showing it here. */
  seen: number;
}

export interface GitPushResult {
  pages: number;
  assetBytes: number;
  setupImportMs: number;
  cloneMs: number;
  webhook: { all: number[]; answerMs: number[]; phases: PushPhases[]; transferBytes: number[]; fastForwards: number };
  apiImport: { all: number[]; phases: PushPhases[] };
  changeRequest: { all: number[]; mergeOnly: number[] };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * For a profile of the pushes alone: `nodeOptions` start the server as `node` with them
 * (a profiler's, which NODE_OPTIONS refuses) and npm start's heap settings, and
 * `onPushes` is told when the timed pushes begin.
 */
export async function benchGitPush(database: BenchDatabase, profiling: { nodeOptions?: string[]; onPushes?: () => void } = {}): Promise<GitPushResult> {
  const git = await startGitServer();
  const proxy = await timingProxy(git.bareUrl);
  const files = repository(PUSH_PAGES);
  git.commit(files, 'A handbook of 1,000 pages');
  const boot = await runCli(['admin', 'bootstrap', '--org', 'Push', '--email', 'push@bench.test', '--name', 'P', '--json'], database.env);
  const { token, organization } = JSON.parse(boot.stdout);
  const server = await startServerProcess(
    { ...database.env, LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0', QUIRE_ALLOW_PRIVATE_URLS: 'true', QUIRE_GIT_SYNC_POLL: '0' },
    profiling.nodeOptions ? ['--max-old-space-size=256', '--max-semi-space-size=8', ...profiling.nodeOptions] : [],
    { asNpmStart: !profiling.nodeOptions },
  );
  const call = apiCaller(server, token);
  const perFolder = PUSH_PAGES / FOLDERS;
  const run = promisify(execFile);
  // A writer's working copy, cloned once over HTTP; each push is a commit of the git binary pushed over HTTP.
  const work = mkdtempSync(join(tmpdir(), 'quire-bench-writer-'));
  const gitIn = (...args: string[]) => run('git', ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.com', ...args], { cwd: work }).then(({ stdout }) => stdout.trim());
  let edits = 0;
  /** Changes one page in a commit, pushed to the server's branch: the page's path, what marks the change, and the commits before and after. */
  const pushOnePageChange = async () => {
    const index = (37 + 97 * ++edits) % PUSH_PAGES;
    const path = `topic-${Math.floor(index / perFolder)}/page-${index}`;
    const marker = `Edited in push ${edits}.`;
    const before = await gitIn('rev-parse', 'HEAD');
    writeFileSync(join(work, `${path}.md`), page(index, PUSH_PAGES).replace('## How it works', `${marker}\n\n## How it works`));
    await gitIn('commit', '-q', '-a', '-m', `Edit page ${index}`);
    await gitIn('push', '-q', 'origin', 'HEAD:refs/heads/main');
    return { path, marker, before, commit: await gitIn('rev-parse', 'HEAD') };
  };
  try {
    await run('git', ['clone', '-q', git.url, work]);
    const clones: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const clone = mkdtempSync(join(tmpdir(), 'quire-bench-clone-'));
      const started = performance.now();
      // Not execFileSync: the git server answers from this very process.
      await run('git', ['clone', '-q', '--depth', '1', proxy.url, clone]);
      clones.push(performance.now() - started);
      rmSync(clone, { recursive: true, force: true });
    }

    const space = await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Pushed handbook' });
    /** Polls git/info until it names `commit` with a successful operation started after `since`; a failure, or 60 s, ends the run with what git/info said. */
    const untilSynced = async (commit: string, since: number) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const info = await call('GET', `/v1/spaces/${space.id}/git/info`);
        const fresh = Date.parse(info.operation.startedAt) >= Math.floor(since);
        if (fresh && info.operation.state === 'success' && info.commit === commit) return { info, at: wallNow() };
        if (fresh && info.operation.state === 'failure') throw new Error(`the sync of ${commit.slice(0, 7)} failed; git/info: ${JSON.stringify(info)}`);
        if (Date.now() > deadline) throw new Error(`${commit.slice(0, 7)} did not arrive within 60 s; git/info: ${JSON.stringify(info)}; the server said:\n${server.output().slice(-2000)}`);
        await sleep(POLL_MS);
      }
    };
    let started = wallNow();
    await call('POST', `/v1/spaces/${space.id}/git/import`, { url: proxy.url, ref: 'refs/heads/main' });
    const first = await untilSynced(await gitIn('rev-parse', 'HEAD'), started);
    const setupImportMs = first.at - started;
    const pages = JSON.stringify(await call('GET', `/v1/spaces/${space.id}/content/pages`)).match(/"type":"document"/g)?.length ?? 0;
    const webhook = first.info.webhook as { url: string; secret: string } | undefined;
    if (!webhook) throw new Error(`git/info answers no webhook after a successful import: ${JSON.stringify(first.info)}`);

    /** After a push arrived: its phases from the proxy's requests and the server's timestamps, and the page checked. */
    const arrived = async (sentAt: number, synced: { info: { operation: { startedAt: string; endedAt?: string } }; at: number }, push: Awaited<ReturnType<typeof pushOnePageChange>>) => {
      const content = await call('GET', `/v1/spaces/${space.id}/content`);
      const read = await call('GET', `/v1/spaces/${space.id}/content/path/${push.path}?format=markdown`);
      if (!JSON.stringify(read).includes(push.marker)) throw new Error(`the space's page ${push.path} lacks "${push.marker}" once git/info named ${push.commit.slice(0, 7)}: ${JSON.stringify(read).slice(0, 400)}`);
      const requests = proxy.requests.filter((request) => request.start >= sentAt && request.end <= synced.at);
      const operationStart = Date.parse(synced.info.operation.startedAt);
      const operationEnd = Date.parse(synced.info.operation.endedAt ?? '');
      const created = Date.parse(content.createdAt);
      const firstRequest = Math.min(...requests.map((request) => request.start));
      const lastAnswer = Math.max(...requests.map((request) => request.end));
      const phases: PushPhases = {
        toOperation: operationStart - sentAt,
        toFirstRequest: firstRequest - operationStart,
        transfer: lastAnswer - firstRequest,
        readAndStore: created - lastAnswer,
        merge: operationEnd - created,
        seen: synced.at - operationEnd,
      };
      return { phases, bytes: requests.reduce((sum, request) => sum + request.bytes, 0), fastForward: content.git?.oid === push.commit };
    };

    const result: GitPushResult = {
      pages,
      assetBytes: IMAGES * IMAGE_BYTES,
      setupImportMs,
      cloneMs: [...clones].sort((a, b) => a - b)[1],
      webhook: { all: [], answerMs: [], phases: [], transferBytes: [], fastForwards: 0 },
      apiImport: { all: [], phases: [] },
      changeRequest: { all: [], mergeOnly: [] },
    };
    // One push first, untimed: the server's first incremental import compiles its code.
    for (let push = -1; push < PUSHES; push++) {
      const change = await pushOnePageChange();
      const body = JSON.stringify({
        ref: 'refs/heads/main',
        before: change.before,
        after: change.commit,
        repository: { full_name: 'bench/docs', clone_url: git.bareUrl },
        pusher: { name: 'Writer', email: 'writer@example.com' },
        head_commit: { id: change.commit, message: 'Edit a page' },
      });
      if (push === 0) profiling.onPushes?.();
      const sentAt = wallNow();
      const answer = await fetch(`${server.baseUrl}${new URL(webhook.url).pathname}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/bench',
          'x-github-event': 'push',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': `sha256=${createHmac('sha256', webhook.secret).update(body).digest('hex')}`,
        },
        body,
      });
      const answerMs = wallNow() - sentAt;
      const answerText = await answer.text();
      if (answer.status !== 202) {
        const info = await call('GET', `/v1/spaces/${space.id}/git/info`);
        throw new Error(`POST ${new URL(webhook.url).pathname} (X-GitHub-Event: push, ref refs/heads/main, signed): ${answer.status} ${answerText}; git/info: ${JSON.stringify(info)}`);
      }
      const synced = await untilSynced(change.commit, sentAt);
      const measured = await arrived(sentAt, synced, change);
      if (push >= 0) {
        result.webhook.all.push(synced.at - sentAt);
        result.webhook.answerMs.push(answerMs);
        result.webhook.phases.push(measured.phases);
        result.webhook.transferBytes.push(measured.bytes);
        if (measured.fastForward) result.webhook.fastForwards++;
      }
      if (push % 2 === 1) {
        // The baseline, interleaved: the same kind of push brought in by the API's import.
        const imported = await pushOnePageChange();
        started = wallNow();
        await call('POST', `/v1/spaces/${space.id}/git/import`, {});
        const importSynced = await untilSynced(imported.commit, started);
        const importMeasured = await arrived(started, importSynced, imported);
        result.apiImport.all.push(importSynced.at - started);
        result.apiImport.phases.push(importMeasured.phases);
      }
    }
    // Last, as they move the space away from the repository: the same change through a change request.
    const pageId = (await call('GET', `/v1/spaces/${space.id}/content/path/topic-0/page-1`)).id as string;
    for (let merge = 0; merge < Math.ceil(PUSHES / 2); merge++) {
      const markdown = page(1, PUSH_PAGES).replace('## How it works', `Edited in change request ${merge}.\n\n## How it works`);
      started = performance.now();
      const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `Edit ${merge}` });
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'update_page', page: pageId, document: markdown }] });
      const mergeStarted = performance.now();
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
      result.changeRequest.all.push(performance.now() - started);
      result.changeRequest.mergeOnly.push(performance.now() - mergeStarted);
    }
    return result;
  } finally {
    await stop(server.child);
    await proxy.close();
    await git.close();
    rmSync(work, { recursive: true, force: true });
  }
}
