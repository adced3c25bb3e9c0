// What holds the server's memory when it serves a large organization: one `quire serve`
// over an organization of 100,000 pages (bench/search.ts's, written into the store
// before the server starts), under bench/load.ts's mixed load as fast as answers come,
// then paced at 75% of that rate, the offered load #23's latency target is stated at,
// and paced at a fixed rate: what awaits collection grows with the rate, so a figure at
// capacity, or at a share of it, moves with the machine's speed, and only the fixed
// rate compares machines.
// The server reports its own memory (memoryReport.mjs, on SIGUSR2), split into V8's
// heap (used and reserved) and what is outside it (code, native libraries, SQLite,
// buffers, allocator slack), at start, after the warm-up and at the end; its resident
// memory is sampled every 5 s of the measured run, to show whether it stays flat. The
// load runs on the one database on servers as `npm start` starts them (bin/serve: V8's
// heap capped, glibc's allocator giving memory back), and at capacity on one started
// as `node bin/quire.js serve`, without those settings.
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

/** The same offered load on every machine: 75% of the capacity of the slowest measured (session 40: 80 req/s). */
const FIXED_RATE = 60;

export async function benchMemory(database: BenchDatabase, seconds: number): Promise<Array<[run: string, LoadMixResult]>> {
  const large = await seedLargeOrganization(database);
  const atCapacity = await benchLoadMix(database, seconds, { large, memoryReports: true });
  const offeredRate = Math.round(atCapacity.requestsPerSecond * 0.75);
  return [
    ['as `npm start` starts it, at capacity', atCapacity],
    [`as \`npm start\` starts it, paced at 75% of that capacity (${offeredRate} req/s offered)`, await benchLoadMix(database, seconds, { large, memoryReports: true, offeredRate })],
    [`as \`npm start\` starts it, paced at ${FIXED_RATE} req/s, the same on every machine`, await benchLoadMix(database, seconds, { large, memoryReports: true, offeredRate: FIXED_RATE })],
    ['without its memory settings (`node bin/quire.js serve`), at capacity', await benchLoadMix(database, seconds, { large, memoryReports: true, asNpmStart: false })],
  ];
}
