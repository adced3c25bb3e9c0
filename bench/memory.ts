// What holds the server's memory: one `quire serve` with 20 spaces of 50 pages, then
// 32 connections of reads (page lists, change requests, spaces) and 10% writes
// (change requests, pages added to them, comments) for BENCH_LOAD_SECONDS (default
// 30). Reports, at start, after seeding and after the load, the resident memory and
// how much of it is V8's heap (used and reserved) and how much is outside it (code,
// native libraries, SQLite, buffers, allocator slack): read from the server itself by
// a preload (memoryReport.mjs) on SIGUSR2.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiCaller, reportFrom, runCli, startServerProcess, stop, type BenchDatabase } from './support.ts';

export interface MemoryReport {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

const PRELOAD = fileURLToPath(new URL('./memoryReport.mjs', import.meta.url));

export async function benchMemory(database: BenchDatabase, seconds: number): Promise<Array<[string, MemoryReport]>> {
  const boot = JSON.parse((await runCli(['admin', 'bootstrap', '--org', 'Memory', '--email', 'memory@quire.test', '--name', 'M', '--json'], database.env)).stdout);
  const file = join(tmpdir(), `quire-memory-${process.pid}.json`);
  const server = await startServerProcess({ ...database.env, LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '1000000000', BENCH_MEMORY_FILE: file, NODE_OPTIONS: `--import ${PRELOAD}` });
  const report = () => reportFrom<MemoryReport>(server.child.pid!, file, 'memory report');
  try {
    const reports: Array<[string, MemoryReport]> = [['started', await report()]];
    const call = apiCaller(server, boot.token);
    const spaces: Array<{ id: string; changeRequest: string }> = [];
    for (let index = 0; index < 20; index++) {
      const space = await call('POST', `/v1/orgs/${boot.organization.id}/spaces`, { title: `Space ${index}` });
      const seed = await call('POST', `/v1/spaces/${space.id}/change-requests`, {});
      await call('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/content`, {
        changes: Array.from({ length: 50 }, (_, page) => ({ operation: 'insert_page', document: `# Page ${page}\n\n${'Some words about the topic at hand. '.repeat(40)}` })),
      });
      await call('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/merge`);
      spaces.push({ id: space.id, changeRequest: (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).id });
    }
    reports.push(['seeded', await report()]);
    const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
    const until = Date.now() + seconds * 1000;
    let written = 0;
    const connection = async () => {
      while (Date.now() < until) {
        const space = pick(spaces);
        const roll = Math.random();
        if (roll < 0.03) await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Change' });
        else if (roll < 0.06) await call('POST', `/v1/spaces/${space.id}/change-requests/${space.changeRequest}/content`, { changes: [{ operation: 'insert_page', document: `# Draft ${written++}\n\nText.` }] });
        else if (roll < 0.1) await call('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: 'A note' } });
        else if (roll < 0.4) await call('GET', `/v1/spaces/${space.id}/content/pages`);
        else if (roll < 0.6) await call('GET', `/v1/spaces/${space.id}/change-requests`);
        else await call('GET', `/v1/spaces/${space.id}`);
      }
    };
    await Promise.all(Array.from({ length: 32 }, connection));
    reports.push(['after the load', await report()]);
    return reports;
  } finally {
    await stop(server.child);
    rmSync(file, { force: true });
  }
}
