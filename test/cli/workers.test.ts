// `quire serve` with QUIRE_WORKERS: one port served by several processes on one
// database, a dead worker replaced, every worker stopped gracefully, and a start that
// cannot listen ending instead of restarting forever.
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { callServer, childPids, freePort, runCli, startServerProcess, waitFor, type ServerProcess } from '../helpers/process.ts';

let database: TestDatabase;
let server: ServerProcess;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServerProcess({ ...database.env, QUIRE_WORKERS: '2' });
  await waitFor('both workers listening', () => (/all workers listening/.test(server.output()) ? true : undefined));
});

afterAll(async () => {
  for (const pid of workerPids(server.child.pid!)) process.kill(pid, 'SIGKILL');
  server.child.kill('SIGKILL');
  await database.drop();
});

/** The `quire serve` processes whose parent is the primary (not tsx's esbuild helper). */
function workerPids(primaryPid: number): number[] {
  return childPids(primaryPid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('quire.js');
    } catch {
      return false; // it ended while we looked
    }
  });
}

function readyStatusOnNewConnection(): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get(`${server.baseUrl}/readyz`, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    }).on('error', reject);
  });
}

const call = (method: string, path: string, token: string, body?: unknown) => callServer(server, method, path, token, body);

describe('quire serve with QUIRE_WORKERS', () => {
  it('serves one port from that many processes sharing the database', async () => {
    expect(workerPids(server.child.pid!)).toHaveLength(2);
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Workers', '--email', 'workers@quire.test', '--name', 'W', '--json'], database.env);
    const { token, organization } = JSON.parse(boot.stdout);
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, index) => call('POST', `/v1/orgs/${organization.id}/spaces`, token, { title: `Space ${index}` })),
    );
    expect(created.map((response) => response.status)).toEqual(created.map(() => 201));
    const listed = await call('GET', `/v1/orgs/${organization.id}/spaces?limit=100`, token);
    expect(listed.body.count).toBe(30);
  });

  it('keeps answering when a worker dies, and starts another in its place', async () => {
    const before = workerPids(server.child.pid!);
    process.kill(before[0], 'SIGKILL');
    // New connections, once the primary knows: those the dead worker held, or was being
    // handed as it died, were lost with it, as with any process that crashes.
    await waitFor('the primary to see it', () => (/a worker died; starting another/.test(server.output()) ? true : undefined));
    for (let attempt = 0; attempt < 10; attempt++) expect(await readyStatusOnNewConnection()).toBe(200);
    const after = await waitFor('a replacement worker', () => {
      const pids = workerPids(server.child.pid!);
      return pids.length === 2 && !pids.includes(before[0]) ? pids : undefined;
    });
    expect(after).toContain(before[1]);
    await waitFor('the replacement listening', () => (server.output().match(/all workers listening/g)?.length === 2 ? true : undefined));
  });

  it('stops every worker on SIGTERM and exits 0', async () => {
    const workers = workerPids(server.child.pid!);
    expect(workers).toHaveLength(2);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(workerPids(server.child.pid!)).toEqual([]);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });

  it('ends with exit 1 instead of restarting workers that cannot listen', async () => {
    const port = await freePort();
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const result = await runCli(['serve'], { ...database.env, QUIRE_WORKERS: '2', HOST: '127.0.0.1', PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/EADDRINUSE/);
      expect(result.stdout).toMatch(/a worker failed before it could listen; stopping/);
    } finally {
      taken.close();
    }
  });
});
