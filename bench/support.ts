// Shared pieces of the benchmarks: child processes, load generation, databases.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createTestDatabase, type Engine, type TestDatabase } from '../test/helpers/database.ts';
import { callServer, childPids, freePort, runCli, startServerProcess, type ServerProcess } from '../test/helpers/process.ts';

export { childPids, runCli, startServerProcess, type ServerProcess };

/** The running server's API as a benchmark uses it: any answer over 299 fails the run, with the server's own last words. */
export function apiCaller(server: ServerProcess, token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const answer = await callServer(server, method, path, token, body).catch((error: Error) => {
      throw new Error(`${method} ${path}: ${error.message}; the server said:\n${server.output().slice(-2000)}`);
    });
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    return answer.body;
  };
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(url: string, headers: Record<string, string>, seconds: number, connections = 32): Promise<LoadResult> {
  const result = await autocannon({ url, headers, connections, duration: seconds, pipelining: 1 });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** Percentiles of latencies in milliseconds. */
export function summarize(latencies: number[]): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

/** What a bare server does before answering, for baselines that do some of a real server's work. */
export interface BareWork {
  /** Spins this long per request: what a given amount of JavaScript costs a server's throughput. */
  spinMicroseconds?: number;
  /**
   * Per request, hashes the bearer token and reads, in one query of this database, the
   * organization or space the path names with the token's row and the owner's
   * membership: the least an authenticated read of Quire's can do. It then answers
   * the fixed bytes, or 404 where the path names nothing.
   */
  database?: BenchDatabase;
}

const require = createRequire(import.meta.url);

/** The bare server's per-request database read, for each engine: source run in the server. */
function bareDatabaseRead(database: BenchDatabase): { setup: string; handler: string } {
  const of = (table: string, organization: string, placeholder: (index: number) => string) =>
    `select r.*, t.user_id, m.role from ${table} r left join api_tokens t on t.token_hash = ${placeholder(1)} and t.revoked_at is null ` +
    `left join organization_members m on m.organization_id = ${organization} and m.user_id = t.user_id where r.id = ${placeholder(2)}`;
  const queries = (placeholder: (index: number) => string) =>
    JSON.stringify({ orgs: of('organizations', 'r.id', placeholder), spaces: of('spaces', 'r.organization_id', placeholder) });
  const keyOf = `
    const [, , kind, id] = req.url.split('?')[0].split('/');
    const hash = createHash('sha256').update((req.headers.authorization ?? '').slice(7)).digest('hex');`;
  if (database.engine === 'sqlite') {
    return {
      setup: `
        const Sqlite = require(${JSON.stringify(require.resolve('better-sqlite3'))});
        const connection = new Sqlite(${JSON.stringify(join(database.env.QUIRE_DATA_DIR!, 'quire.db'))});
        const statements = Object.fromEntries(Object.entries(${queries(() => '?')}).map(([kind, text]) => [kind, connection.prepare(text)]));`,
      handler: `${keyOf}
        if (statements[kind]?.get(hash, id)) answer(res); else missing(res);`,
    };
  }
  return {
    setup: `
      const { Pool } = require(${JSON.stringify(require.resolve('pg'))});
      const pool = new Pool({ connectionString: ${JSON.stringify(database.env.DATABASE_URL)}, max: 10 });
      const queries = ${queries((index) => `$${index}`)};`,
    handler: `${keyOf}
      if (!queries[kind]) return missing(res);
      pool.query({ name: kind, text: queries[kind], values: [hash, id] }).then(
        (result) => (result.rows.length > 0 ? answer(res) : missing(res)),
        (error) => { res.writeHead(500); res.end(String(error)); },
      );`,
  };
}

/**
 * A bare node:http server answering one fixed JSON object: the ceiling for this machine,
 * or with `work`, a baseline that does some of a real server's work first.
 * `nodeOptions` go to Node itself (a profiler's); SIGTERM ends it through exit, so they
 * can write what they collected.
 */
export async function startBareServer(body: string, nodeOptions: string[] = [], work: BareWork = {}): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const read = work.database ? bareDatabaseRead(work.database) : { setup: '', handler: 'answer(res);' };
  const spin = work.spinMicroseconds
    ? `for (const end = process.hrtime.bigint() + ${work.spinMicroseconds * 1000}n; process.hrtime.bigint() < end; );`
    : '';
  const source = `
    const http = require('node:http');
    const { createHash } = require('node:crypto');
    // The bytes made once, as the fastest server of a fixed answer would keep them.
    const body = Buffer.from(${JSON.stringify(body)});
    const answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    };
    const missing = (res) => {
      res.writeHead(404);
      res.end();
    };
    ${read.setup}
    http.createServer((req, res) => {
      ${spin}
      ${read.handler}
    }).listen(${port}, '127.0.0.1', () => console.log('ready'));
    process.on('SIGTERM', () => process.exit(0));`;
  const child = spawn(process.execPath, [...nodeOptions, '-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, child };
}

export interface BenchDatabase extends TestDatabase {
  engine: Engine;
}

export async function sqliteDatabase(): Promise<BenchDatabase> {
  return { engine: 'sqlite', ...(await createTestDatabase('sqlite')) };
}

/** A fresh schema in BENCH_DATABASE_URL (default: the machine's test database), or undefined if unreachable. */
export async function postgresDatabase(): Promise<BenchDatabase | undefined> {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  try {
    return { engine: 'postgres', ...(await createTestDatabase('postgres', baseUrl)) };
  } catch {
    return undefined;
  }
}

const CLOCK_TICKS_PER_SECOND = 100;

/** The server and every process under it (with QUIRE_WORKERS, its workers). */
export function serverProcesses(rootPid: number): number[] {
  const tree = [rootPid];
  for (let index = 0; index < tree.length; index++) tree.push(...childPids(tree[index]));
  return tree;
}

/** A process's resident memory (VmRSS), in MB. */
export function residentMegabytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** User plus system CPU time so far of what a `stat` file describes (fields 14 and 15), in milliseconds. */
function statCpuMilliseconds(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** User plus system CPU time of the server's processes so far, in milliseconds. */
export function cpuMilliseconds(rootPid: number): number {
  return serverProcesses(rootPid).reduce((sum, pid) => sum + statCpuMilliseconds(`/proc/${pid}/stat`), 0);
}

/**
 * A Node process's main thread so far, in milliseconds: its CPU time (user plus system),
 * and how long it was ready to run but waited for a core (its schedstat's second field;
 * undefined where the kernel keeps no such account). The main thread of a `quire serve`
 * process runs every request, so it is their queue; on a small machine it shares its
 * cores with the process's other threads and with the load generator.
 */
export function mainThreadMilliseconds(pid: number): { cpu: number; waiting?: number } {
  const cpu = statCpuMilliseconds(`/proc/${pid}/task/${pid}/stat`);
  try {
    return { cpu, waiting: Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6 };
  } catch {
    return { cpu };
  }
}

/**
 * The machine's CPU time so far, from /proc/stat's first line (every core): busy (all
 * but idle and I/O wait) and in all, in clock ticks. Between two readings it says how
 * much of the machine a run took, with the database's processes, the load generator and
 * everything else on the cores: a share of the server's capacity is not a share of the
 * machine once the server shares it.
 */
export function machineCpuTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is inside user already).
  const ticks = fields.slice(0, 8).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  return { busy: total - ticks[3] - ticks[4], total };
}

/** Asks a server's benchmark preload for a report (SIGUSR2) and reads the JSON file it writes. */
export async function reportFrom<Report>(pid: number, file: string, what: string): Promise<Report> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; !existsSync(file); waited += 10) {
    if (waited > 5_000) throw new Error(`the server wrote no ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('close', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The median time of `times` runs of a synchronous `run`, in milliseconds. */
export function medianMilliseconds(run: () => void, times: number): number {
  const samples: number[] = [];
  for (let index = 0; index < times; index++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)];
}
