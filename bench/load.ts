// A mixed workload against one `quire serve` process: 64 connections, about 90% reads
// (spaces, page lists, pages, change requests, comments, search) and 10% writes (comments,
// change requests and their content, space renames), for BENCH_LOAD_SECONDS (default
// 30) after a 15 s warm-up. Reports requests/s, read and write latency percentiles, errors,
// and the server's resident memory after the warm-up and at the end. Run as fast as
// answers come, it measures capacity (and latency is then connections ÷ throughput);
// paced at a rate below capacity, it measures the latency users see at that load.
// It also reports the server's CPU time per request, how busy its request thread was and
// how long that thread waited for a core; with BENCH_SQL_TIMING=1 on SQLite, how much
// of the server's one thread went to SQLite statements (sqlTiming.mjs); on PostgreSQL,
// how long each taking of a pooled connection waited for one (poolWait.mjs).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MemoryReport } from './memory.ts';
import { contentSeeder } from './search.ts';
import { cpuMilliseconds, machineCpuTicks, mainThreadMilliseconds, reportFrom, residentMegabytes, runCli, serverProcesses, startBareServer, startServerProcess, stop, summarize, type BenchDatabase, type LatencySummary } from './support.ts';

export interface LoadMixResult {
  engine: string;
  requestsPerSecond: number;
  reads: LatencySummary;
  /** Reads by kind (space, page list, search, …), to tell which kind makes the tail. */
  readsByKind: Map<string, LatencySummary>;
  writes: LatencySummary;
  errors: number;
  rssAfterWarmupMb: number;
  rssEndMb: number;
  /** The server's RSS in MB every 5 s of the measured run. */
  rssSamples: number[];
  /** The server process's CPU time (user + system) per request of the measured run. */
  serverCpuMsPerRequest: number;
  /** That CPU time as a share of one core over the measured run. */
  serverCpuShare: number;
  /** The share of all the machine's cores busy over the measured run, with the database and the generator. */
  machineBusyShare: number;
  /** The load generator's own CPU time (this process) as a share of one core over the measured run. */
  generatorCpuShare: number;
  /**
   * The server's request thread (its main thread; single-process runs only): its CPU time
   * per request, its busy share of the measured run, and the share of the run it was
   * ready to run but waited for a core. Every request queues for this one thread, so its
   * busy share, not the offered rate, says how close a run is to falling behind; its
   * waiting, how much of a tail the machine's other work made.
   */
  requestThread?: RequestThread;
  /** With BENCH_SQL_TIMING: time inside SQLite statements during the measured run. */
  sql?: SqlTiming;
  /** On PostgreSQL, single-process runs: how long the measured run waited for pooled connections. */
  poolWait?: PoolWait;
  /** With `memoryReports`: the server's own account of its memory at start, after the warm-up and at the end. */
  memory?: Array<[moment: string, report: MemoryReport]>;
  /** Pages of the organization under load. */
  pages: number;
  /**
   * The measured run's slowest reads, each beside the worst the server's event loop was
   * held, V8's collection pauses in the server and the generator's own event loop held,
   * over the seconds the read waited: whether a tail came from the server's thread, the
   * generator, or neither (the kernel, the other processes, the database server).
   * Single-process runs only.
   */
  slowestReads?: SlowRead[];
  /** Over the measured run: the server's event loop held at worst, GC pauses in all and at worst, the generator's loop held at worst. */
  pauses?: { serverLoopMaxMs: number; serverGcMs: number; serverGcMaxMs: number; generatorLoopMaxMs: number };
  /**
   * The read p99 of each 10 s of the measured run (by when reads were due): a tail
   * spread over the run is queueing; one window far above the others is a stall, and at
   * 700 req/s half a second of it is enough to make the whole run's p99.
   */
  readP99ByWindow: number[];
  /**
   * For a closed-loop run: the same generator, connections and mix against a bare
   * node:http server answering the organization's bytes to every request, in the same
   * run: the capacity of this machine for any server, and the measure of Quire's.
   */
  bareRequestsPerSecond?: number;
}

export interface SlowRead {
  kind: string;
  milliseconds: number;
  serverLoopMaxMs: number;
  serverGcMs: number;
  generatorLoopMaxMs: number;
}

export interface RequestThread {
  msPerRequest: number;
  share: number;
  waitingShare?: number;
}

export interface SqlTiming {
  msPerRequest: number;
  /** Share of the measured run's wall time the server's thread spent in SQLite. */
  shareOfRun: number;
  /** The statements that took longest in all, longest first. */
  top: Array<{ sql: string; count: number; milliseconds: number }>;
}

export interface PoolWait {
  /** Connections taken: one for each statement outside a transaction, one for each transaction. */
  takes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The most callers waiting for a connection at once. */
  mostWaiting: number;
}

const CONNECTIONS = 64;
const WARMUP_SECONDS = 15;
const SPACES = 20;
const PAGES_PER_SPACE = 50;

const SQL_TIMING_PRELOAD = fileURLToPath(new URL('./sqlTiming.mjs', import.meta.url));
const MEMORY_PRELOAD = fileURLToPath(new URL('./memoryReport.mjs', import.meta.url));
const PAUSES_PRELOAD = fileURLToPath(new URL('./pauses.mjs', import.meta.url));
const POOL_WAIT_PRELOAD = fileURLToPath(new URL('./poolWait.mjs', import.meta.url));

/**
 * The organization of 100,000 pages of bench/search.ts, written straight into the
 * store before the server starts, and a token of its administrator.
 */
export async function seedLargeOrganization(database: BenchDatabase) {
  const handle = await database.open();
  try {
    const seeder = contentSeeder(handle.db);
    const { actor, organization, spaceIds } = await seeder.fill('Load', 'load@quire.test');
    const { token } = JSON.parse((await runCli(['admin', 'create-token', '--user', actor.user.id, '--json'], database.env)).stdout);
    // Indexed, as a database that grew through the API is: the server's catch-up would otherwise index it under the load.
    await runCli(['reindex'], database.env);
    return { token, organization, spaceIds, pages: seeder.pagesPerOrganization, queries: seeder.words.slice(0, 40) };
  } finally {
    await handle.close();
  }
}

export type LargeOrganization = Awaited<ReturnType<typeof seedLargeOrganization>>;

type SqlTotals = Record<string, { count: number; milliseconds: number }>;

/** Asks the server's sqlTiming preload for its totals so far and waits for the file. */
function sqlTotals(pid: number, file: string): Promise<SqlTotals> {
  return reportFrom<SqlTotals>(pid, file, 'SQL timings');
}

interface PoolWaitTotals {
  waits: Record<string, number>;
  mostWaiting: number;
}

/** Asks the server's poolWait preload for its counts so far and waits for the file. */
function poolWaitTotals(pid: number, file: string): Promise<PoolWaitTotals> {
  return reportFrom<PoolWaitTotals>(pid, file, 'pool waits');
}

/** The waits counted between two of poolWait.mjs's reports, as percentiles (whole milliseconds, rounded down). */
function poolWaitBetween(before: PoolWaitTotals, after: PoolWaitTotals): PoolWait {
  const counts = Object.entries(after.waits)
    .map(([milliseconds, count]) => [Number(milliseconds), count - (before.waits[milliseconds] ?? 0)])
    .filter(([, count]) => count > 0)
    .sort((a, b) => a[0] - b[0]);
  const takes = counts.reduce((sum, [, count]) => sum + count, 0);
  const at = (fraction: number) => {
    let seen = 0;
    for (const [milliseconds, count] of counts) if ((seen += count) > takes * fraction) return milliseconds;
    return counts.at(-1)?.[0] ?? 0;
  };
  return { takes, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: counts.at(-1)?.[0] ?? 0, mostWaiting: after.mostWaiting };
}

function requestThreadBetween(before: ReturnType<typeof mainThreadMilliseconds>, after: ReturnType<typeof mainThreadMilliseconds>, requests: number, runMs: number): RequestThread {
  return {
    msPerRequest: (after.cpu - before.cpu) / requests,
    share: (after.cpu - before.cpu) / runMs,
    waitingShare: before.waiting === undefined || after.waiting === undefined ? undefined : (after.waiting - before.waiting) / runMs,
  };
}

function sqlTimingBetween(before: SqlTotals, after: SqlTotals, requests: number, runMs: number): SqlTiming {
  const statements = Object.entries(after).map(([sql, total]) => ({
    sql,
    count: total.count - (before[sql]?.count ?? 0),
    milliseconds: total.milliseconds - (before[sql]?.milliseconds ?? 0),
  }));
  const milliseconds = statements.reduce((sum, statement) => sum + statement.milliseconds, 0);
  return {
    msPerRequest: milliseconds / requests,
    shareOfRun: milliseconds / runMs,
    top: statements.sort((a, b) => b.milliseconds - a.milliseconds).slice(0, 5),
  };
}

/** One second of the server's, as bench/pauses.mjs writes it. */
interface PauseSecond {
  at: number;
  loopMaxMs: number;
  gcMs: number;
  gcMaxMs: number;
}

/** How long this process's event loop was held at worst, by epoch second, until `stop`. */
function loopDelayBySecond() {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const maxBySecond = new Map<number, number>();
  const sample = () => {
    maxBySecond.set(Math.floor((Date.now() - 1) / 1000), histogram.max / 1e6);
    histogram.reset();
  };
  const timer = setInterval(sample, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      histogram.disable();
      return maxBySecond;
    },
  };
}

const SLOWEST_READS = 3;

/** The run's slowest reads beside the stalls of the seconds they waited through, and the run's stalls in all. */
function pausesOfRun(
  run: { timedReads: Array<[string, number, number]>; generatorLoopMaxMs: Map<number, number>; startedAt: number; elapsedMs: number },
  server: PauseSecond[],
): Pick<LoadMixResult, 'slowestReads' | 'pauses'> {
  const serverBySecond = new Map(server.map((second) => [second.at, second]));
  const secondsBetween = (fromMs: number, toMs: number) =>
    Array.from({ length: Math.floor(toMs / 1000) - Math.floor(fromMs / 1000) + 1 }, (_, index) => Math.floor(fromMs / 1000) + index);
  const over = (seconds: number[]) => ({
    serverLoopMaxMs: Math.max(0, ...seconds.map((at) => serverBySecond.get(at)?.loopMaxMs ?? 0)),
    serverGcMs: seconds.reduce((sum, at) => sum + (serverBySecond.get(at)?.gcMs ?? 0), 0),
    serverGcMaxMs: Math.max(0, ...seconds.map((at) => serverBySecond.get(at)?.gcMaxMs ?? 0)),
    generatorLoopMaxMs: Math.max(0, ...seconds.map((at) => run.generatorLoopMaxMs.get(at) ?? 0)),
  });
  const slowestReads = [...run.timedReads]
    .sort((a, b) => b[2] - a[2])
    .slice(0, SLOWEST_READS)
    .map(([kind, dueAt, milliseconds]) => {
      const { serverLoopMaxMs, serverGcMs, generatorLoopMaxMs } = over(secondsBetween(dueAt, dueAt + milliseconds));
      return { kind, milliseconds, serverLoopMaxMs, serverGcMs, generatorLoopMaxMs };
    });
  return { slowestReads, pauses: over(secondsBetween(run.startedAt, run.startedAt + run.elapsedMs)) };
}

const WINDOW_MS = 10_000;

function p99ByWindow(run: { timedReads: Array<[string, number, number]>; startedAt: number; elapsedMs: number }): number[] {
  // The last reads, due as the run ended, count in its last whole window.
  const lastWindow = Math.max(0, Math.floor(run.elapsedMs / WINDOW_MS) - 1);
  const windows: number[][] = [];
  for (const [, dueAt, milliseconds] of run.timedReads) {
    (windows[Math.min(lastWindow, Math.max(0, Math.floor((dueAt - run.startedAt) / WINDOW_MS)))] ??= []).push(milliseconds);
  }
  return [...windows].filter(Boolean).map((latencies) => summarize(latencies).p99);
}

/** Resident memory of the server's processes, in MB. */
function treeResidentMegabytes(rootPid: number): number {
  return serverProcesses(rootPid).reduce((sum, pid) => sum + residentMegabytes(pid), 0);
}

export interface LoadMixOptions {
  offeredRate?: number;
  workers?: number;
  /** Load this organization (seedLargeOrganization's 100,000 pages) instead of 20 spaces of 50 pages seeded through the API. */
  large?: LargeOrganization;
  /** Ask the server for its own account of its memory (V8's heap and the rest) at each moment. */
  memoryReports?: boolean;
  /** Start the server as `npm start` does, with its memory settings (bin/serve); otherwise as `node bin/quire.js serve`. */
  asNpmStart?: boolean;
}

const RUN_TS = fileURLToPath(new URL('../bin/run-ts.js', import.meta.url));
const GENERATOR = fileURLToPath(new URL('./loadGenerator.ts', import.meta.url));

/** A run's result file holds each of its maps as its entries under this key, and is read back with them as maps. */
const MAP_ENTRIES = '$mapEntries';
const withMapsAsEntries = (_key: string, value: unknown) => (value instanceof Map ? { [MAP_ENTRIES]: [...value] } : value);
const withEntriesAsMaps = (_key: string, value: any) => (value?.[MAP_ENTRIES] ? new Map(value[MAP_ENTRIES]) : value);

/**
 * The mixed load, generated from a process started for this run alone. On two cores
 * the generator's CPU is the server's: a generator that had made earlier runs cost more
 * a request, and the server's tail with it (four runs in one process at 925 req/s on
 * SQLite took 14, 17, 25 and 26% of a core and measured a p99 of 19.0, 26.3, 37.3 and
 * 33.7 ms; in a fresh process each, 14 and 16%, 18.3 and 22.1 ms; after the hour of
 * `npm run bench`'s other benchmarks, 35% and 91.4 ms: bench/RESULTS.md, session 53).
 */
export async function benchLoadMix(database: BenchDatabase, seconds: number, options: LoadMixOptions = {}): Promise<LoadMixResult> {
  const resultFile = join(tmpdir(), `quire-load-result-${process.pid}-${Date.now()}.json`);
  const task = JSON.stringify({ database: { engine: database.engine, env: database.env }, seconds, options, resultFile });
  const child = spawn(process.execPath, [RUN_TS, GENERATOR, task], { stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  try {
    if (code !== 0) throw new Error(`the load generator exited with ${code}`);
    return JSON.parse(readFileSync(resultFile, 'utf8'), withEntriesAsMaps);
  } finally {
    rmSync(resultFile, { force: true });
  }
}

/** The load generator's entry (loadGenerator.ts): one run, its result written where it is told. */
export async function generateLoadMix(task: string): Promise<void> {
  const { database, seconds, options, resultFile } = JSON.parse(task);
  writeFileSync(resultFile, JSON.stringify(await loadMix(database, seconds, options), withMapsAsEntries));
}

/**
 * `offeredRate` (requests/s over all connections) paces the connections instead of
 * letting each send as soon as its last answer came; latency is then counted from
 * when a request was due, so a server falling behind shows in it.
 */
async function loadMix(
  database: Pick<BenchDatabase, 'engine' | 'env'>,
  seconds: number,
  {
    offeredRate,
    workers = 1,
    large,
    memoryReports = false,
    asNpmStart = true,
  }: LoadMixOptions = {},
): Promise<LoadMixResult> {
  const { token, organization } =
    large ?? JSON.parse((await runCli(['admin', 'bootstrap', '--org', 'Load', '--email', 'load@quire.test', '--name', 'Load', '--json'], database.env)).stdout);
  // Both reports come from one process only: the signal that asks for them reaches the primary alone.
  const timeSql = Boolean(process.env.BENCH_SQL_TIMING) && database.engine === 'sqlite' && workers === 1;
  const reportMemory = memoryReports && workers === 1;
  const reportPauses = workers === 1;
  const reportPoolWait = database.engine === 'postgres' && workers === 1;
  const sqlTimingFile = join(tmpdir(), `quire-sql-timing-${process.pid}.json`);
  const memoryFile = join(tmpdir(), `quire-memory-${process.pid}.json`);
  const pausesFile = join(tmpdir(), `quire-pauses-${process.pid}.json`);
  const poolWaitFile = join(tmpdir(), `quire-pool-wait-${process.pid}.json`);
  // The pauses preload first: its report is written before the memory report's collection.
  const preloads = [...(reportPauses ? [PAUSES_PRELOAD] : []), ...(timeSql ? [SQL_TIMING_PRELOAD] : []), ...(reportMemory ? [MEMORY_PRELOAD] : []), ...(reportPoolWait ? [POOL_WAIT_PRELOAD] : [])];
  const server = await startServerProcess({
    ...database.env,
    LOG_LEVEL: 'warn',
    // The limiter runs as in production but with room for the whole load on one token.
    QUIRE_RATE_LIMIT: '1000000000',
    QUIRE_WORKERS: String(workers),
    NODE_OPTIONS: [...preloads.map((preload) => `--import ${preload}`), ...(reportMemory ? ['--expose-gc'] : [])].join(' '),
    ...(timeSql ? { BENCH_SQL_TIMING_FILE: sqlTimingFile } : {}),
    ...(reportMemory ? { BENCH_MEMORY_FILE: memoryFile } : {}),
    ...(reportPauses ? { BENCH_PAUSES_FILE: pausesFile } : {}),
    ...(reportPoolWait ? { BENCH_POOL_WAIT_FILE: poolWaitFile } : {}),
  }, [], { asNpmStart });
  const memory: Array<[string, MemoryReport]> = [];
  /** `live`: the server collects everything first and says what is live (only at the end: a collection changes what follows). */
  const reportMemoryAt = async (moment: string, live = false) => {
    if (!reportMemory) return;
    if (live) writeFileSync(`${memoryFile}.live`, '');
    memory.push([moment, await reportFrom<MemoryReport>(server.child.pid!, memoryFile, 'memory report')]);
  };
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const [host, quirePort] = server.baseUrl.replace('http://', '').split(':');
  let port = Number(quirePort);

  // The measured runs skip parsing answers: the generator shares the machine's two cores.
  const send = (method: string, path: string, body?: unknown, parse = true) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const outgoing = httpRequest(
        {
          host,
          port,
          method,
          path,
          agent,
          headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk) => parse && chunks.push(chunk));
          response.on('end', () => {
            const text = parse ? Buffer.concat(chunks).toString() : '';
            resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
          });
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  const must = async (method: string, path: string, body?: unknown) => {
    const response = await send(method, path, body);
    if (response.status >= 300) throw new Error(`seeding ${method} ${path} answered ${response.status}`);
    return response.body;
  };

  try {
    await reportMemoryAt('started');
    const spaceIds: string[] = large?.spaceIds ?? [];
    for (let spaceIndex = 0; !large && spaceIndex < SPACES; spaceIndex++) {
      const space = await must('POST', `/v1/orgs/${organization.id}/spaces`, { title: `Space ${spaceIndex}` });
      const seed = await must('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Seed' });
      await must('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/content`, {
        changes: Array.from({ length: PAGES_PER_SPACE }, (_, pageIndex) => ({
          operation: 'insert_page',
          document: `# Page ${pageIndex}\n\n${'Some words about the topic at hand. '.repeat(40)}`,
        })),
      });
      await must('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/merge`);
      spaceIds.push(space.id);
    }
    const spaces: Array<{ id: string; pages: string[]; changeRequests: string[]; comments: string[] }> = [];
    for (const id of spaceIds) {
      const pages = (await must('GET', `/v1/spaces/${id}/content/pages`)).pages.map((page: { id: string }) => page.id);
      const open = await must('POST', `/v1/spaces/${id}/change-requests`, { subject: 'Open' });
      const comment = await must('POST', `/v1/spaces/${id}/comments`, { body: { markdown: 'First' } });
      spaces.push({ id, pages, changeRequests: [open.id], comments: [comment.id] });
    }
    const queries = large?.queries ?? ['topic', 'words about', 'page', '"at hand"'];

    const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
    const reads: Array<[kind: string, () => string]> = [
      ['space', () => `/v1/spaces/${pick(spaces).id}`],
      ['space list', () => `/v1/orgs/${organization.id}/spaces?limit=20`],
      ['page list', () => `/v1/spaces/${pick(spaces).id}/content/pages`],
      [
        'page',
        () => {
          const space = pick(spaces);
          return `/v1/spaces/${space.id}/content/page/${pick(space.pages)}`;
        },
      ],
      ['change requests', () => `/v1/spaces/${pick(spaces).id}/change-requests`],
      ['comments', () => `/v1/spaces/${pick(spaces).id}/comments`],
      ['organization', () => `/v1/orgs/${organization.id}`],
      ['search', () => `/v1/orgs/${organization.id}/search?query=${encodeURIComponent(pick(queries))}`],
    ];
    let writeCounter = 0;
    const writes: Array<() => [string, string, unknown]> = [
      () => ['POST', `/v1/spaces/${pick(spaces).id}/comments`, { body: { markdown: `Note ${++writeCounter}` } }],
      () => ['POST', `/v1/spaces/${pick(spaces).id}/change-requests`, { subject: `Change ${++writeCounter}` }],
      () => {
        const space = pick(spaces);
        return ['POST', `/v1/spaces/${space.id}/change-requests/${pick(space.changeRequests)}/content`, {
          changes: [{ operation: 'insert_page', document: `# Draft ${++writeCounter}\n\nText.` }],
        }];
      },
      () => ['PATCH', `/v1/spaces/${pick(spaces).id}`, { title: `Space renamed ${++writeCounter}` }],
    ];

    const run = async (durationMs: number) => {
      const writeLatencies: number[] = [];
      /** Every read's kind, when it was due (epoch ms) and how long it took. */
      const timedReads: Array<[kind: string, dueAt: number, milliseconds: number]> = [];
      const generatorLoop = loopDelayBySecond();
      let errors = 0;
      const until = Date.now() + durationMs;
      const intervalMs = offeredRate ? (CONNECTIONS / offeredRate) * 1000 : 0;
      const connection = async () => {
        let dueAt = performance.now() + Math.random() * intervalMs;
        while (Date.now() < until) {
          if (intervalMs > 0) {
            const wait = dueAt - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          }
          const read = Math.random() < 0.1 ? undefined : pick(reads);
          const [method, path, body] = read ? ['GET', read[1](), undefined] : pick(writes)();
          const started = intervalMs > 0 ? dueAt : performance.now();
          dueAt += intervalMs;
          try {
            const response = await send(method, path, body, false);
            if (response.status >= 300) errors++;
          } catch {
            errors++;
          }
          const milliseconds = performance.now() - started;
          if (read) timedReads.push([read[0], performance.timeOrigin + started, milliseconds]);
          else writeLatencies.push(milliseconds);
        }
      };
      const startedAt = Date.now();
      await Promise.all(Array.from({ length: CONNECTIONS }, connection));
      const elapsedMs = Date.now() - startedAt;
      const generatorLoopMaxMs = generatorLoop.stop();
      const readLatencies = new Map(reads.map(([kind]) => [kind, [] as number[]]));
      for (const [kind, , milliseconds] of timedReads) readLatencies.get(kind)!.push(milliseconds);
      const allReads = timedReads.map(([, , milliseconds]) => milliseconds);
      const requests = allReads.length + writeLatencies.length;
      return { readLatencies, allReads, writeLatencies, timedReads, generatorLoopMaxMs, errors, requests, startedAt, elapsedMs, requestsPerSecond: requests / (elapsedMs / 1000) };
    };

    // Long enough for the caches and V8's heap to reach their working size.
    await run(WARMUP_SECONDS * 1000);
    await reportMemoryAt('after the warm-up');
    const rssAfterWarmupMb = treeResidentMegabytes(server.child.pid!);
    const rssSamples: number[] = [];
    const sampler = setInterval(() => rssSamples.push(Math.round(treeResidentMegabytes(server.child.pid!))), 5_000);
    const sqlBefore = timeSql ? await sqlTotals(server.child.pid!, sqlTimingFile) : undefined;
    const poolWaitBefore = reportPoolWait ? await poolWaitTotals(server.child.pid!, poolWaitFile) : undefined;
    const cpuBefore = cpuMilliseconds(server.child.pid!);
    const machineBefore = machineCpuTicks();
    const generatorBefore = process.cpuUsage();
    const requestThreadBefore = workers === 1 ? mainThreadMilliseconds(server.child.pid!) : undefined;
    const measured = await run(seconds * 1000);
    const cpuUsed = cpuMilliseconds(server.child.pid!) - cpuBefore;
    const machineAfter = machineCpuTicks();
    const generatorUsed = process.cpuUsage(generatorBefore);
    const requestThread =
      requestThreadBefore && requestThreadBetween(requestThreadBefore, mainThreadMilliseconds(server.child.pid!), measured.requests, measured.elapsedMs);
    // Before any other report: each report's signal starts the queue's worst afresh.
    const poolWait = poolWaitBefore && poolWaitBetween(poolWaitBefore, await poolWaitTotals(server.child.pid!, poolWaitFile));
    const sql =
      sqlBefore &&
      sqlTimingBetween(sqlBefore, await sqlTotals(server.child.pid!, sqlTimingFile), measured.requests, measured.elapsedMs);
    clearInterval(sampler);
    const serverPauses = reportPauses ? await reportFrom<PauseSecond[]>(server.child.pid!, pausesFile, 'pauses') : undefined;
    const rssEndMb = treeResidentMegabytes(server.child.pid!);
    await reportMemoryAt('at the end', true);
    let bareRequestsPerSecond: number | undefined;
    if (!offeredRate && workers === 1) {
      const bare = await startBareServer(JSON.stringify(await must('GET', `/v1/orgs/${organization.id}`)));
      try {
        port = Number(new URL(bare.url).port);
        await run(5_000);
        bareRequestsPerSecond = (await run(seconds * 1000)).requestsPerSecond;
      } finally {
        port = Number(quirePort);
        await stop(bare.child);
      }
    }
    return {
      bareRequestsPerSecond,
      readP99ByWindow: p99ByWindow(measured),
      engine: database.engine,
      requestsPerSecond: measured.requestsPerSecond,
      reads: summarize(measured.allReads),
      readsByKind: new Map([...measured.readLatencies].map(([kind, latencies]) => [kind, summarize(latencies)])),
      writes: summarize(measured.writeLatencies),
      errors: measured.errors,
      rssAfterWarmupMb,
      rssEndMb,
      rssSamples,
      serverCpuMsPerRequest: cpuUsed / measured.requests,
      serverCpuShare: cpuUsed / measured.elapsedMs,
      machineBusyShare: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
      generatorCpuShare: (generatorUsed.user + generatorUsed.system) / 1000 / measured.elapsedMs,
      requestThread,
      sql,
      poolWait,
      memory: reportMemory ? memory : undefined,
      ...(serverPauses && pausesOfRun(measured, serverPauses)),
      pages: large?.pages ?? SPACES * PAGES_PER_SPACE,
    };
  } finally {
    agent.destroy();
    await stop(server.child);
    rmSync(sqlTimingFile, { force: true });
    rmSync(poolWaitFile, { force: true });
    rmSync(memoryFile, { force: true });
    rmSync(pausesFile, { force: true });
    rmSync(`${memoryFile}.live`, { force: true });
  }
}
