// What holds the server's memory when it serves a large organization: one `quire serve`
// over an organization of 100,000 pages (bench/search.ts's, written into the store
// before the server starts), under bench/load.ts's mixed load as fast as answers come.
// The server reports its own memory (memoryReport.mjs, on SIGUSR2), split into V8's
// heap (used and reserved) and what is outside it (code, native libraries, SQLite,
// buffers, allocator slack), at start, after the warm-up and at the end; its resident
// memory is sampled every 5 s of the measured run, to show whether it stays flat. The
// load runs twice on the one database: on a server as `npm start` starts it (bin/serve:
// V8's heap capped, glibc's allocator giving memory back), and on one started as
// `node bin/quire.js serve`, without those settings.
import { benchLoadMix, seedLargeOrganization, type LoadMixResult } from './load.ts';
import type { BenchDatabase } from './support.ts';

export interface MemoryReport {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  /** What is live after a full collection, when the benchmark asked (the end of the run). */
  live?: number;
}

export async function benchMemory(database: BenchDatabase, seconds: number): Promise<Array<[run: string, LoadMixResult]>> {
  const large = await seedLargeOrganization(database);
  return [
    ['as `npm start` starts it', await benchLoadMix(database, seconds, { large, memoryReports: true })],
    ['without its memory settings (`node bin/quire.js serve`)', await benchLoadMix(database, seconds, { large, memoryReports: true, asNpmStart: false })],
  ];
}
