// One pool of worker threads per process for CPU-heavy pure work (PDF rendering, the
// three-way merge of large pages, parsing large markdown, search sections of large
// pages), so that one request's work never holds the thread that answers everyone
// else. Small inputs run inline: handing them to a thread costs more than doing them.
import { availableParallelism } from 'node:os';
import type { Transferable } from 'node:worker_threads';
import { Piscina, queueOptionsSymbol, type TaskQueue } from 'piscina';
import { tasks, type Tasks } from './tasks.ts';

/**
 * Whether someone waits for the task's answer (a request; the search index a merge's
 * answer waits for) or nobody does (a background job: link checks, documents made ahead).
 */
export type Priority = 'waited-for' | 'background';

type QueuedTask = Parameters<TaskQueue['push']>[0];

/**
 * The pool's queue: background tasks start only when no waited-for task is queued. A
 * 2-core machine has one worker thread, and first-in first-out let the link checks of
 * one merge's large pages take turns with the next merge's search index, which that
 * merge's answer waits for.
 */
export class WaitedForFirstQueue implements TaskQueue {
  private readonly waitedFor: QueuedTask[] = [];
  private readonly background: QueuedTask[] = [];

  get size(): number {
    return this.waitedFor.length + this.background.length;
  }

  private queueOf(task: QueuedTask): QueuedTask[] {
    return (task[queueOptionsSymbol] as { priority?: Priority } | null)?.priority === 'background' ? this.background : this.waitedFor;
  }

  push(task: QueuedTask): void {
    this.queueOf(task).push(task);
  }

  /** Puts back a task the pool took but could not start: it goes first again. */
  unshift(task: QueuedTask): void {
    this.queueOf(task).unshift(task);
  }

  shift(): QueuedTask | null {
    return this.waitedFor.shift() ?? this.background.shift() ?? null;
  }

  remove(task: QueuedTask): void {
    const queue = this.queueOf(task);
    const index = queue.indexOf(task);
    if (index >= 0) queue.splice(index, 1);
  }
}

/** Characters of text below which work runs inline (about a millisecond of parsing). */
const INLINE_TEXT_LIMIT = 64 * 1024;

let pool: Piscina | undefined;

/** The bundle of run.ts that bin/quire.js made, when it did: threads then load no TypeScript loader. */
const bundledWorker = (globalThis as { quireWorkerModule?: string }).quireWorkerModule;

function thePool(): Piscina {
  pool ??= new Piscina({
    filename: bundledWorker ?? new URL('./entry.js', import.meta.url).href,
    minThreads: 0,
    // One core stays for the request thread; idle threads end, and give their memory back:
    // a thread that has converted pages holds about 65 MB (bench/memory.ts), a third of
    // a small server's; after 5 s without work it goes, and the next large page starts one.
    maxThreads: Math.max(1, availableParallelism() - 1),
    idleTimeout: 5_000,
    taskQueue: new WaitedForFirstQueue(),
  });
  return pool;
}

/** Runs a task on a worker thread; answers what it answers. */
export function runOffThread<Name extends keyof Tasks>(
  name: Name,
  input: Parameters<Tasks[Name]>[0],
  { transferList, priority = 'waited-for' }: { transferList?: Transferable[]; priority?: Priority } = {},
): Promise<Awaited<ReturnType<Tasks[Name]>>> {
  return thePool().run({ name, input, [queueOptionsSymbol]: { priority } }, { transferList: transferList as never });
}

/** Runs a task inline when its text is small, on a worker thread otherwise: the one rule every caller follows. */
export async function runSized<Name extends keyof Tasks>(
  name: Name,
  input: Parameters<Tasks[Name]>[0],
  textLength: number,
  { priority }: { priority?: Priority } = {},
): Promise<Awaited<ReturnType<Tasks[Name]>>> {
  if (textLength >= INLINE_TEXT_LIMIT) return runOffThread(name, input, { priority });
  return (tasks[name] as (input: Parameters<Tasks[Name]>[0]) => Awaited<ReturnType<Tasks[Name]>>)(input);
}

/** Characters of text handed to one task when many pages are processed. */
const BATCH_TEXT = 256 * 1024;

/**
 * Runs `run` over items in batches of about BATCH_TEXT characters; answers the results
 * in order. The next batch is handed over while one runs, so that it waits in the pool's
 * queue ahead of background work (a batch's own answer would otherwise find the thread
 * taken by whatever was queued meanwhile), and at most two batches' results are held.
 */
export async function runInTextBatches<Item, Result>(
  items: Item[],
  sizeOf: (item: Item) => number,
  run: (batch: Item[], textLength: number) => Promise<Result[]>,
): Promise<Result[]> {
  const batches: Array<{ items: Item[]; size: number }> = [];
  let batch: { items: Item[]; size: number } = { items: [], size: 0 };
  for (const item of items) {
    batch.items.push(item);
    batch.size += sizeOf(item);
    if (batch.size < BATCH_TEXT) continue;
    batches.push(batch);
    batch = { items: [], size: 0 };
  }
  if (batch.items.length > 0) batches.push(batch);
  const results: Result[] = [];
  let next = batches.length > 0 ? run(batches[0].items, batches[0].size) : undefined;
  for (let index = 0; index < batches.length; index++) {
    const running = next!;
    next = index + 1 < batches.length ? run(batches[index + 1].items, batches[index + 1].size) : undefined;
    // Should this batch fail, the next one's failure is not left unhandled.
    next?.catch(() => undefined);
    for (const result of await running) results.push(result);
  }
  return results;
}

/** Ends the pool's threads (at shutdown; a later task starts it again). */
export async function closeCpuPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}
