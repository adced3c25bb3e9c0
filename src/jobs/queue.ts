// Enqueueing and running durable jobs. A job is a kind, a JSON payload and a time to
// run; handlers must be idempotent, since a job whose process died mid-run runs again
// once its lease expires.
import { claimDueJob, deleteJob, insertJob, rescheduleJob } from '../db/repos/jobs.ts';
import type { Db } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import type { Clock } from '../lib/clock.ts';
import type { ServiceContext } from '../services/context.ts';

export type JobHandler = (ctx: ServiceContext, payload: any) => Promise<void>;

const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 10;
/** Where a job that kept failing waits for a person to look at its last_error. */
const NEVER = '9999-12-31T00:00:00.000Z';

export async function enqueueJob(db: Db, clock: Clock, kind: string, payload: unknown, runAt?: Date): Promise<void> {
  const now = clock.now();
  await insertJob(db, {
    id: newId(),
    kind,
    payload: JSON.stringify(payload),
    run_at: (runAt ?? now).toISOString(),
    attempts: 0,
    locked_until: null,
    last_error: null,
    created_at: now.toISOString(),
  });
}

/** Runs every job that is due now, one at a time; answers how many ran. */
export async function runDueJobs(ctx: ServiceContext, handlers: Record<string, JobHandler>): Promise<number> {
  let ran = 0;
  for (;;) {
    const now = ctx.clock.now();
    const job = await claimDueJob(ctx.db, now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString());
    if (!job) return ran;
    ran++;
    try {
      const handler = handlers[job.kind];
      if (!handler) throw new Error(`no handler for jobs of kind "${job.kind}"`);
      await handler(ctx, JSON.parse(job.payload));
      await deleteJob(ctx.db, job.id);
    } catch (error) {
      const retryAt =
        job.attempts >= MAX_ATTEMPTS ? NEVER : new Date(now.getTime() + 2 ** job.attempts * 1000).toISOString();
      await rescheduleJob(ctx.db, job.id, retryAt, String((error as Error)?.message ?? error));
    }
  }
}

export interface JobWorker {
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
    running = runDueJobs(ctx, handlers)
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
