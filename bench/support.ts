// Shared pieces of the benchmarks: child processes, load generation, databases.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
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

/**
 * A bare node:http server answering one fixed JSON object: the ceiling for this machine.
 * `nodeOptions` go to Node itself (a profiler's); SIGTERM ends it through exit, so they
 * can write what they collected.
 */
export async function startBareServer(body: string, nodeOptions: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const source = `
    const http = require('node:http');
    // The bytes made once, as the fastest server of a fixed answer would keep them.
    const body = Buffer.from(${JSON.stringify(body)});
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
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

/** User plus system CPU time of the server's processes so far, in milliseconds (stat fields 14 and 15). */
export function cpuMilliseconds(rootPid: number): number {
  return serverProcesses(rootPid).reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  }, 0);
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
