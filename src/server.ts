// Starts Quire: configuration, database (migrated), HTTP server, graceful shutdown.
import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openMigratedDatabase } from './db/index.ts';
import { jobHandlers } from './jobs/handlers.ts';
import { startJobWorker } from './jobs/queue.ts';
import { scheduleSearchCatchUp } from './services/search.ts';
import { schedulePruning } from './services/events.ts';
import { followConversionChange } from './services/pageDocuments.ts';
import { schedulePolling } from './services/gitSync.ts';
import { logStart } from './startup.ts';

/** How often an idle worker looks for due jobs. */
const JOB_POLL_MS = 5_000;

export async function startServer(config: Config): Promise<FastifyInstance> {
  const database = await openMigratedDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePool });
  const app = await buildApp({ config, database, closeDatabase: true });
  await app.listen({ port: config.port, host: config.host });
  // With QUIRE_WORKERS above 1 the primary says it once for all of them.
  if (cluster.isPrimary) logStart(app.log, config);
  if (config.integrations && app.ctx.sandbox.unavailable) app.log.warn(`integrations are off: ${app.ctx.sandbox.unavailable}`);
  // Queued in the background like job runs, and like them waited for before the database closes.
  const { jobRuns } = app.ctx;
  void jobRuns.run(() => schedulePruning(app.ctx)).catch((error) => app.log.error({ err: error }, 'could not queue the pruning of old events'));
  void jobRuns.run(() => scheduleSearchCatchUp(app.ctx)).catch((error) => app.log.error({ err: error }, 'could not queue the search index catch-up; run `npx quire reindex`'));
  void jobRuns.run(() => schedulePolling(app.ctx)).catch((error) => app.log.error({ err: error }, 'could not queue the Git Sync poll: pushes arrive through webhooks only'));
  void jobRuns.run(() => followConversionChange(app.ctx)).catch((error) => app.log.error({ err: error }, 'could not queue what follows a new conversion of markdown: documents are made when first read'));
  const worker = startJobWorker(app.ctx, jobHandlers, {
    intervalMs: JOB_POLL_MS,
    onError: (error) => app.log.error({ err: error }, 'job worker failed; retrying'),
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing in-flight requests');
    // Keep-alive connections that finish a request while closing would hold the
    // server open; close each as soon as it falls idle. Give up after the deadline.
    const sweeper = setInterval(() => app.server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      app.log.error('in-flight requests did not finish within 30 s; exiting');
      process.exit(1);
    }, 30_000);
    deadline.unref();
    try {
      // The worker claims no job more; the close refuses the runs waiting for the sandbox
      // and waits for the rest before the database closes.
      const workerStopped = worker.stop();
      await app.close();
      await workerStopped;
      clearInterval(sweeper);
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  return app;
}
