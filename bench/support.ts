// Shared pieces of the benchmarks: child processes, load generation, databases.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort, runCli, startServerProcess, type ServerProcess } from '../test/helpers/process.ts';
import { newId } from '../src/lib/ids.ts';

export { runCli, startServerProcess, type ServerProcess };

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

/** A bare node:http server answering one fixed JSON object: the ceiling for this machine. */
export async function startBareServer(body: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const source = `
    const http = require('node:http');
    const body = ${JSON.stringify(body)};
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, child };
}

export interface BenchDatabase {
  engine: 'sqlite' | 'postgres';
  env: Record<string, string>;
  drop(): Promise<void>;
}

export async function sqliteDatabase(): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  return { engine: 'sqlite', env: { QUIRE_DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** A fresh schema in BENCH_DATABASE_URL (default: the machine's test database), or undefined if unreachable. */
export async function postgresDatabase(): Promise<BenchDatabase | undefined> {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `quire_bench_${newId(10).toLowerCase()}`;
  const client = new pg.Client({ connectionString: baseUrl });
  try {
    await client.connect();
    await client.query(`create schema ${schema}`);
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  return {
    engine: 'postgres',
    env: { DATABASE_URL: url.toString(), QUIRE_DATA_DIR: dataDir },
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists ${schema} cascade`);
      await cleanup.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('close', () => resolve());
    child.kill('SIGTERM');
  });
}
