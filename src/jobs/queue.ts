// Enqueueing and running durable jobs. A job is a kind, a JSON payload and a time to
// run; handlers must be idempotent, since a job whose process died mid-run runs again
// once its lease expires.
import { claimDueJob, claimJob, deleteJob, findJobs, insertJob, reclaimJob, renewJobLease, rescheduleJob, returnJobUntried } from '../db/repos/jobs.ts';
import type { Db, JobRow } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { FetchRefused } from '../lib/safeFetch.ts';
import { SandboxRefused, SandboxStopping } from '../sandbox/sandbox.ts';
import { newId } from '../lib/ids.ts';
import { setImmediate } from 'node:timers/promises';
import type { Clock } from '../lib/clock.ts';
import type { ServiceContext } from '../services/context.ts';

export { JobRuns } from './runs.ts';

export type JobHandler = (ctx: ServiceContext, payload: any) => Promise<void>;

/** A job that cannot do its work yet (a service down, another operation running): retried later, reported in one line. */
export class RetryLater extends Error {}

/**
 * Work that must not be given up while it can still be done (a merge waiting for its
 * commit while the git server is down): retried with back-off like any job, but never
 * set aside for a person, at most LONGEST_RETRY_MS apart.
 */
export class RetryUntilDone extends RetryLater {}

const LONGEST_RETRY_MS = 15 * 60_000;

const DEFAULT_LEASE_MS = 60_000;
/** Runs of a job before it waits for a person (at 2^attempts seconds apart: about 17 minutes in all). */
export const MAX_JOB_ATTEMPTS = 10;
/** Where a job that kept failing waits for a person to look at its last_error. */
const NEVER = '9999-12-31T00:00:00.000Z';

export async function enqueueJob(db: Db, clock: Clock, kind: string, payload: unknown, runAt?: Date, heldUntil?: string): Promise<string> {
  const now = clock.now();
  const id = newId();
  await insertJob(db, {
    id,
    kind,
    payload: JSON.stringify(payload),
    run_at: (runAt ?? now).toISOString(),
    // A held job is taken as it is queued: its first run is this one.
    attempts: heldUntil ? 1 : 0,
    locked_until: heldUntil ?? null,
    last_error: null,
    created_at: now.toISOString(),
  });
  return id;
}

/** A job queued already leased to this process, which runs it with runHeldJob. */
export interface HeldJob {
  id: string;
  heldUntil: string;
}

/**
 * Queues a job for this process to run as soon as the transaction it is queued in has
 * committed, for work a request waits for. Queued free, another process's worker could
 * take it between the commit and this process's claim, and the request would answer
 * before the work was done; held, it is this process's until its lease runs out, which
 * is also how it goes back to the workers should this process stop first.
 */
export async function enqueueHeldJob(ctx: ServiceContext, db: Db, kind: string, payload: unknown): Promise<HeldJob> {
  const heldUntil = leaseEnd(ctx, ctx.clock.now());
  return { id: await enqueueJob(db, ctx.clock, kind, payload, undefined, heldUntil), heldUntil };
}

/** Runs a held job here, unless its lease ran out meanwhile and another process took it. */
export function runHeldJob(ctx: ServiceContext, held: HeldJob, handler: JobHandler): Promise<void> {
  return ctx.jobRuns.run(async () => {
    const now = ctx.clock.now();
    const job = await reclaimJob(ctx.db, held.id, held.heldUntil, leaseEnd(ctx, now));
    if (job) await runClaimed(ctx, job, handler, now);
  });
}

/** Runs a held job here soon, without waiting for it; should it not run, its lease runs out and a worker takes it. */
export function runHeldJobSoon(ctx: ServiceContext, held: HeldJob, handler: JobHandler): void {
  runSoon(ctx, () => runHeldJob(ctx, held, handler));
}

/** Starts a run on the next turn of the event loop, tracked from now; a run that fails to start leaves its job queued. */
function runSoon(ctx: ServiceContext, start: () => Promise<void>): void {
  void ctx.jobRuns.run(async () => {
    await setImmediate();
    await start().catch(() => undefined);
  });
}

/** Queues a job of this kind unless one is queued already: the start's recurring and catch-up work, queued by every process that starts. */
export async function enqueueJobOnce(ctx: ServiceContext, kind: string, payload: unknown): Promise<void> {
  if ((await findJobs(ctx.db, kind)).length === 0) await enqueueJob(ctx.db, ctx.clock, kind, payload);
}

function leaseMs(ctx: ServiceContext): number {
  return ctx.config.jobLeaseMs ?? DEFAULT_LEASE_MS;
}

function leaseEnd(ctx: ServiceContext, from: Date): string {
  return new Date(from.getTime() + leaseMs(ctx)).toISOString();
}

async function runClaimed(ctx: ServiceContext, job: JobRow, handler: JobHandler | undefined, now: Date): Promise<void> {
  // A running job renews its lease, so the lease can be short: a job whose process
  // died is picked up again soon, and a long job is never run twice at once.
  const renewal = setInterval(() => {
    renewJobLease(ctx.db, job.id, leaseEnd(ctx, ctx.clock.now())).catch(() => undefined);
  }, leaseMs(ctx) / 3);
  try {
    if (!handler) throw new Error(`no handler for jobs of kind "${job.kind}"`);
    await handler(ctx, JSON.parse(job.payload));
    await deleteJob(ctx.db, job.id);
  } catch (error) {
    if (error instanceof SandboxStopping) {
      ctx.log.info({ job: job.id, kind: job.kind }, `job put back untried: ${error.message}`);
      await returnJobUntried(ctx.db, job.id);
      return;
    }
    const untilDone = error instanceof RetryUntilDone;
    const delayMs = untilDone ? Math.min(2 ** Math.min(job.attempts, 20) * 1000, LONGEST_RETRY_MS) : 2 ** job.attempts * 1000;
    const retryAt = job.attempts >= MAX_JOB_ATTEMPTS && !untilDone ? NEVER : new Date(now.getTime() + delayMs).toISOString();
    const message = String((error as Error)?.message ?? error);
    const facts = { job: job.id, kind: job.kind, attempt: job.attempts, retryAt: retryAt === NEVER ? 'never' : retryAt };
    // A refusal or a failed fetch is the job's outcome, said in one line; anything else is a fault worth its stack.
    if (error instanceof AppError || error instanceof FetchRefused || error instanceof RetryLater || error instanceof SandboxRefused) ctx.log.warn(facts, `job failed: ${message}`);
    else ctx.log.error({ ...facts, err: error }, 'job failed unexpectedly');
    await rescheduleJob(ctx.db, job.id, retryAt, message);
  } finally {
    clearInterval(renewal);
  }
}

/** Runs every job that is due now, one at a time, until none is or `stopped` says so; answers how many ran. */
export async function runDueJobs(ctx: ServiceContext, handlers: Record<string, JobHandler>, stopped: () => boolean = () => false): Promise<number> {
  let ran = 0;
  while (!stopped()) {
    const claimed = await ctx.jobRuns.run(async () => {
      const now = ctx.clock.now();
      const job = await claimDueJob(ctx.db, now.toISOString(), leaseEnd(ctx, now));
      if (job) await runClaimed(ctx, job, handlers[job.kind], now);
      return job !== undefined;
    });
    if (!claimed) break;
    ran++;
  }
  return ran;
}

/**
 * Queues a job and runs it at once in this process, for work a request waits for. The
 * job is durable all the same: if this process stops before it ends, a worker runs it
 * again once the lease runs out; if it fails, it is retried like any other.
 */
export async function runJobNow(ctx: ServiceContext, kind: string, payload: unknown, handler: JobHandler): Promise<void> {
  await runHeldJob(ctx, await enqueueHeldJob(ctx, ctx.db, kind, payload), handler);
}

/** Takes the lease of one queued job and runs it here, unless another process holds it. */
export function claimAndRun(ctx: ServiceContext, jobId: string, handler: JobHandler): Promise<void> {
  return ctx.jobRuns.run(async () => {
    const now = ctx.clock.now();
    const job = await claimJob(ctx.db, jobId, now.toISOString(), leaseEnd(ctx, now));
    if (job) await runClaimed(ctx, job, handler, now);
  });
}

/**
 * Starts a job already queued (in the transaction that made its work due) in this
 * process without waiting for it; the worker would find it anyway, later.
 */
export function startJobSoon(ctx: ServiceContext, jobId: string, handler: JobHandler): void {
  // Not claimed (the database is closing, say): the job stays queued for the worker.
  runSoon(ctx, () => claimAndRun(ctx, jobId, handler));
}

export interface JobWorker {
  /** Claims no job more; resolves once the run under way, if any, has ended. */
  stop(): Promise<void>;
}

/** Polls for due jobs until stopped. */
export function startJobWorker(
  ctx: ServiceContext,
  handlers: Record<string, JobHandler>,
  options: { intervalMs: number; onError: (error: unknown) => void },
): JobWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = runDueJobs(ctx, handlers, () => stopped)
      .catch(options.onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
