// The durable job queue: work that must happen later or outside a request, kept in
// the database so that it survives a restart and is shared by every process.
import type { Db, JobRow } from '../schema.ts';
import { skipLockedRows } from '../dialect.ts';

export async function insertJob(db: Db, job: JobRow): Promise<void> {
  await db.insertInto('jobs').values(job).execute();
}

/**
 * Takes the next due job, leasing it until `leaseUntil`; a job whose lease ran out
 * (its process died) is due again. One statement, so two processes never take one job.
 */
export async function claimDueJob(db: Db, now: string, leaseUntil: string): Promise<JobRow | undefined> {
  const next = skipLockedRows(
    db,
    db
      .selectFrom('jobs')
      .select('id')
      .where('run_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('run_at')
      .orderBy('id')
      .limit(1),
  );
  return db
    .updateTable('jobs')
    .set((eb) => ({ locked_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', next)
    .returningAll()
    .executeTakeFirst();
}

/** Takes the lease of one job, if nobody holds it. */
export async function claimJob(db: Db, jobId: string, now: string, leaseUntil: string): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs')
    .set((eb) => ({ locked_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', jobId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .returningAll()
    .executeTakeFirst();
}

/** Takes back a job queued under this process's lease: it still holds it unless the lease ran out and another process took it. */
export async function reclaimJob(db: Db, jobId: string, heldUntil: string, leaseUntil: string): Promise<JobRow | undefined> {
  return db.updateTable('jobs').set({ locked_until: leaseUntil }).where('id', '=', jobId).where('locked_until', '=', heldUntil).returningAll().executeTakeFirst();
}

export async function renewJobLease(db: Db, jobId: string, leaseUntil: string): Promise<void> {
  await db.updateTable('jobs').set({ locked_until: leaseUntil }).where('id', '=', jobId).execute();
}

export async function deleteJob(db: Db, jobId: string): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', jobId).execute();
}

/** Puts a claimed job back as it was before the claim: due, free for any process, its claim not counted as a run. */
export async function returnJobUntried(db: Db, jobId: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set((eb) => ({ locked_until: null, attempts: eb('attempts', '-', 1) }))
    .where('id', '=', jobId)
    .where('attempts', '>', 0)
    .execute();
}

export async function rescheduleJob(db: Db, jobId: string, runAt: string, lastError: string): Promise<void> {
  await db.updateTable('jobs').set({ run_at: runAt, locked_until: null, last_error: lastError }).where('id', '=', jobId).execute();
}

export function findJobs(db: Db, kind: string): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('kind', '=', kind).orderBy('run_at').execute();
}
