// How long `quire serve` takes from its process starting to answering /readyz, and
// its memory then: the first start on a fresh data directory (or an empty PostgreSQL
// schema), which migrates it; a restart of that empty database; and a restart of a
// database holding an organization of 100,000 pages. Nothing proportional to the
// content may run before listening: the two restarts should take the same time. The
// restarts are medians of three. The bundle of the sources is made before, as any
// start after the first on a machine finds it made. Last, the empty database served
// by QUIRE_WORKERS=2: the memory of the primary, which only supervises, and of each
// worker, idle.
import { spawn } from 'node:child_process';
import { freePort, QUIRE_BIN } from '../test/helpers/process.ts';
import { contentSeeder } from './search.ts';
import { residentMegabytes, runCli, serverProcesses, stop, type BenchDatabase } from './support.ts';

export interface StartResult {
  freshMs: number;
  freshRssMb: number;
  emptyMs: number;
  fullMs: number;
  fullRssMb: number;
  pages: number;
  /** With QUIRE_WORKERS=2, idle: the primary's RSS and each worker's. */
  primaryRssMb: number;
  workerRssMb: number[];
}

/**
 * Milliseconds from spawning `quire serve` to its first 200 from /readyz (polled every
 * 5 ms), and the RSS of each of its processes (the server, or the primary and its
 * workers) once all `workers` have started and a second has passed.
 */
async function timeStart(env: Record<string, string | undefined>, workers = 1): Promise<{ ms: number; rssMb: number[] }> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [QUIRE_BIN, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), QUIRE_WORKERS: String(workers), ...env },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('quire serve exited before it was ready');
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (workers > 1) {
      while (serverProcesses(child.pid!).length < workers + 1) {
        if (child.exitCode !== null) throw new Error('quire serve exited before its workers started');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    return { ms, rssMb: serverProcesses(child.pid!).map(residentMegabytes) };
  } finally {
    await stop(child);
  }
}

async function medianStart(env: Record<string, string | undefined>) {
  const runs = [];
  for (let run = 0; run < 3; run++) runs.push(await timeStart(env));
  runs.sort((a, b) => a.ms - b.ms);
  return runs[1];
}

export async function benchStart(database: BenchDatabase): Promise<StartResult> {
  await runCli(['--help'], database.env);
  const fresh = await timeStart(database.env);
  const empty = await medianStart(database.env);
  const [primaryRssMb, ...workerRssMb] = (await timeStart(database.env, 2)).rssMb;
  const handle = await database.open();
  let pages: number;
  try {
    const seeder = contentSeeder(handle.db);
    await seeder.fill('Large', 'large@quire.test');
    pages = seeder.pagesPerOrganization;
  } finally {
    await handle.close();
  }
  await runCli(['migrate'], database.env);
  const full = await medianStart(database.env);
  return { freshMs: fresh.ms, freshRssMb: fresh.rssMb[0], emptyMs: empty.ms, fullMs: full.ms, fullRssMb: full.rssMb[0], pages, primaryRssMb, workerRssMb };
}
