// The durable job queue: jobs survive a restart, run once across processes, retry
// with backoff, and come back when the process that took them died.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/index.ts';
import { enqueueHeldJob, enqueueJob, JobRuns, runDueJobs, runHeldJob, startJobWorker, type JobHandler } from '../../src/jobs/queue.ts';
import { findJobs } from '../../src/db/repos/jobs.ts';
import { BadRequest } from '../../src/errors.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { processRevisionCaches } from '../../src/services/revisionCaches.ts';
import { createTestClock, type TestClock } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { noSandbox } from '../../src/sandbox/sandbox.ts';

let database: TestDatabase;
let first: DatabaseHandle;
let second: DatabaseHandle;
let clock: TestClock;

function contextOf(handle: DatabaseHandle): ServiceContext {
  return { db: handle.db, clock, config: { publicUrl: 'http://quire.test', allowPrivateUrls: false }, log: pino({ level: 'silent' }), linkKey: 'test-key', secretsKey: () => Buffer.alloc(32), sandbox: noSandbox('no integrations here'), jobRuns: new JobRuns(), revisions: processRevisionCaches };
}

beforeAll(async () => {
  database = await createTestDatabase();
  first = await database.open();
  second = await database.open();
  clock = createTestClock();
});

afterAll(async () => {
  await first.close();
  await second.close();
  await database.drop();
});

describe('durable jobs', () => {
  it('survive a restart: a job enqueued before closing runs after reopening', async () => {
    const seen: string[] = [];
    const handlers: Record<string, JobHandler> = { note: async (_ctx, payload) => void seen.push(payload.text) };
    const writer = await database.open();
    await enqueueJob(writer.db, clock, 'note', { text: 'after restart' }, new Date(clock.now().getTime() + 60_000));
    await writer.close();
    const reopened = await database.open();
    try {
      expect(await runDueJobs({ ...contextOf(reopened) }, handlers)).toBe(0);
      clock.advance(61_000);
      expect(await runDueJobs({ ...contextOf(reopened) }, handlers)).toBe(1);
      expect(seen).toEqual(['after restart']);
      expect(await findJobs(reopened.db, 'note')).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  it('run exactly once when two processes take jobs from one queue at the same time', async () => {
    const runs = new Map<number, number>();
    const handlers: Record<string, JobHandler> = {
      count: async (_ctx, payload) => {
        runs.set(payload.n, (runs.get(payload.n) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 1));
      },
    };
    for (let n = 0; n < 40; n++) await enqueueJob(first.db, clock, 'count', { n });
    const [a, b] = await Promise.all([runDueJobs(contextOf(first), handlers), runDueJobs(contextOf(second), handlers)]);
    expect(a + b).toBe(40);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(runs.size).toBe(40);
  });

  it('retry a failing job later with its error recorded', async () => {
    let attempts = 0;
    const handlers: Record<string, JobHandler> = {
      flaky: async () => {
        attempts++;
        if (attempts < 3) throw new Error(`failure ${attempts}`);
      },
    };
    await enqueueJob(first.db, clock, 'flaky', {});
    expect(await runDueJobs(contextOf(first), handlers)).toBe(1);
    const [waiting] = await findJobs(first.db, 'flaky');
    expect(waiting).toMatchObject({ attempts: 1, last_error: 'failure 1', locked_until: null });
    expect(await runDueJobs(contextOf(first), handlers)).toBe(0);
    clock.advance(2_000);
    await runDueJobs(contextOf(first), handlers);
    clock.advance(4_000);
    await runDueJobs(contextOf(first), handlers);
    expect(attempts).toBe(3);
    expect(await findJobs(first.db, 'flaky')).toEqual([]);
  });

  it('report a failure in one line, with its stack only when the failure is unexpected', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const ctx = { ...contextOf(first), log };
    const handlers: Record<string, JobHandler> = {
      refused: async () => {
        throw new BadRequest('the source is not an OpenAPI document');
      },
      broken: async () => {
        throw new TypeError('undefined is not a function');
      },
    };
    await enqueueJob(first.db, clock, 'refused', {});
    await enqueueJob(first.db, clock, 'broken', {});
    await runDueJobs(ctx, handlers);
    const refused = lines.find((line) => line.kind === 'refused')!;
    expect(refused).toMatchObject({ level: 40, msg: 'job failed: the source is not an OpenAPI document', attempt: 1 });
    expect(refused.err).toBeUndefined();
    const broken = lines.find((line) => line.kind === 'broken')!;
    expect(broken).toMatchObject({ level: 50, msg: 'job failed unexpectedly', err: { message: 'undefined is not a function' } });
    expect(String((broken.err as { stack: string }).stack)).toMatch(/TypeError/);
    await first.db.deleteFrom('jobs').where('kind', 'in', ['refused', 'broken']).execute();
  });

  it('give a job back when the process that took it died, once its lease runs out', async () => {
    await enqueueJob(first.db, clock, 'orphan', {});
    const lease = new Date(clock.now().getTime() + 60_000).toISOString();
    await first.db.updateTable('jobs').set({ locked_until: lease, attempts: 1 }).where('kind', '=', 'orphan').execute();
    let ran = 0;
    const handlers: Record<string, JobHandler> = { orphan: async () => void ran++ };
    expect(await runDueJobs(contextOf(second), handlers)).toBe(0);
    clock.advance(6 * 60_000);
    expect(await runDueJobs(contextOf(second), handlers)).toBe(1);
    expect(ran).toBe(1);
  });

  it("are not taken by another process's worker when held for the request that queued them, which runs them once its transaction commits; should it never run them, a worker does once the lease runs out", async () => {
    const ranBy: string[] = [];
    const handlers = (who: string): Record<string, JobHandler> => ({ held: async (_ctx, payload) => void ranBy.push(`${payload.n} by ${who}`) });
    const committed = await first.db.transaction().execute((trx) => enqueueHeldJob(contextOf(first), trx, 'held', { n: 1 }));
    // Between the commit and the run, the other process's worker polls.
    expect(await runDueJobs(contextOf(second), handlers('the worker'))).toBe(0);
    await runHeldJob(contextOf(first), committed, handlers('the request').held);
    expect(ranBy).toEqual(['1 by the request']);
    expect(await findJobs(first.db, 'held')).toEqual([]);

    // Queued, but the process stopped before it ran it.
    const abandoned = await enqueueHeldJob(contextOf(first), first.db, 'held', { n: 2 });
    expect(await runDueJobs(contextOf(second), handlers('the worker'))).toBe(0);
    clock.advance(61_000);
    expect(await runDueJobs(contextOf(second), handlers('the worker'))).toBe(1);
    // The request's process, back too late, does not run it a second time.
    await runHeldJob(contextOf(first), abandoned, handlers('the request').held);
    expect(ranBy).toEqual(['1 by the request', '2 by the worker']);
  });

  it('are picked up by the background worker without being asked', async () => {
    let resolveRan!: () => void;
    const ran = new Promise<void>((resolve) => (resolveRan = resolve));
    await enqueueJob(first.db, clock, 'background', {});
    const worker = startJobWorker(contextOf(first), { background: async () => resolveRan() }, {
      intervalMs: 20,
      onError: (error) => {
        throw error;
      },
    });
    await ran;
    await worker.stop();
    expect(await findJobs(first.db, 'background')).toEqual([]);
  });

  it('are claimed no more once the worker is stopping: the run under way ends, and the backlog waits untried for the next start', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const ran: number[] = [];
    for (let n = 0; n < 3; n++) await enqueueJob(first.db, clock, 'backlog', { n });
    const worker = startJobWorker(contextOf(first), {
      backlog: async (_ctx, payload) => {
        started();
        await released;
        ran.push(payload.n);
      },
    }, { intervalMs: 20, onError: (error) => { throw error; } });
    await running;
    const stopped = worker.stop();
    release();
    await stopped;
    expect(ran).toHaveLength(1);
    const waiting = await findJobs(first.db, 'backlog');
    expect(waiting).toHaveLength(2);
    for (const job of waiting) expect(job).toMatchObject({ attempts: 0, locked_until: null });
    await first.db.deleteFrom('jobs').where('kind', '=', 'backlog').execute();
  });
});
