// `quire serve` with QUIRE_WORKERS above 1. Node runs JavaScript on one thread per
// process, so one process leaves every other core idle. This process (the primary)
// brings the schema up to date once, then starts that many server processes that
// share the port (Node's cluster module hands each new connection to the next one)
// and the database, exactly as separately started processes do, and replaces any
// that dies. A worker that fails before it listens (port taken, database unreachable)
// stops the whole server instead: a replacement would fail the same way, forever.
import cluster, { type Worker } from 'node:cluster';
import { pino } from 'pino';
import type { Config } from './config.ts';
import { openMigratedDatabase } from './db/index.ts';
import { loggerOptions } from './lib/logging.ts';
import { logStart } from './startup.ts';
import { ensureWebApp } from './webApp/build.ts';

/** `quire serve`: serves in this process, or, with QUIRE_WORKERS above 1, starts the workers that do. */
export async function serve(config: Config): Promise<void> {
  // Once, before any process serves: the servers load the build they find.
  if (cluster.isPrimary) await buildWebApp(config);
  if (config.workers > 1 && cluster.isPrimary) return superviseWorkers(config);
  // Loaded only where it serves: the primary stays small without the HTTP server's code.
  const { startServer } = await import('./server.ts');
  await startServer(config);
}

/** Builds the browser app when its build is missing or stale; the API serves without it (the app's pages then say how to build it). */
async function buildWebApp(config: Config): Promise<void> {
  const log = pino(loggerOptions(config.logLevel));
  try {
    await ensureWebApp((message) => log.info(message));
  } catch (error) {
    log.error({ err: error }, 'the app (web/) could not be built: the API serves, the app does not');
  }
}

async function superviseWorkers(config: Config): Promise<void> {
  const log = pino(loggerOptions(config.logLevel));
  const database = await openMigratedDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
  await database.close();

  const alive = new Set<Worker>();
  const listening = new Set<Worker>();
  let stopping = false;
  let failed = false;

  const start = () => {
    const worker = cluster.fork();
    alive.add(worker);
    worker.once('listening', () => {
      listening.add(worker);
      if (listening.size === config.workers) {
        log.info({ workers: config.workers, port: config.port }, 'all workers listening');
        logStart(log, config);
      }
    });
  };

  const exitOnceAllStopped = () => {
    if (alive.size === 0) process.exit(failed ? 1 : 0);
  };

  const stopAll = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'stopping every worker: each finishes its in-flight requests');
    for (const worker of alive) worker.process.kill('SIGTERM');
    exitOnceAllStopped();
  };

  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker);
    const started = listening.delete(worker);
    if (stopping) {
      // A worker still starting has no handler yet: our SIGTERM ends it, and that is a clean stop.
      if (code !== 0 && signal !== 'SIGTERM') failed = true;
      return exitOnceAllStopped();
    }
    if (!started) {
      failed = true;
      log.error({ workerPid: worker.process.pid, code, signal }, 'a worker failed before it could listen; stopping');
      return stopAll('a worker failed to start');
    }
    log.error({ workerPid: worker.process.pid, code, signal }, 'a worker died; starting another');
    start();
  });

  process.once('SIGTERM', () => stopAll('SIGTERM'));
  process.once('SIGINT', () => stopAll('SIGINT'));
  for (let index = 0; index < config.workers; index++) start();
}
