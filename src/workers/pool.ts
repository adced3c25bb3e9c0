// One pool of worker threads per process for CPU-heavy pure work (PDF rendering, the
// three-way merge of large pages, parsing large markdown, search sections of large
// pages), so that one request's work never holds the thread that answers everyone
// else. Small inputs run inline: handing them to a thread costs more than doing them.
import { availableParallelism } from 'node:os';
import type { Transferable } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { tasks, type Tasks } from './tasks.ts';

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
  });
  return pool;
}

/** Runs a task on a worker thread; answers what it answers. */
export function runOffThread<Name extends keyof Tasks>(
  name: Name,
  input: Parameters<Tasks[Name]>[0],
  transferList?: Transferable[],
): Promise<Awaited<ReturnType<Tasks[Name]>>> {
  return thePool().run({ name, input }, { transferList: transferList as never });
}

/** Runs a task inline when its text is small, on a worker thread otherwise: the one rule every caller follows. */
export async function runSized<Name extends keyof Tasks>(
  name: Name,
  input: Parameters<Tasks[Name]>[0],
  textLength: number,
): Promise<Awaited<ReturnType<Tasks[Name]>>> {
  if (textLength >= INLINE_TEXT_LIMIT) return runOffThread(name, input);
  return (tasks[name] as (input: Parameters<Tasks[Name]>[0]) => Awaited<ReturnType<Tasks[Name]>>)(input);
}

/** Characters of text handed to one task when many pages are processed. */
const BATCH_TEXT = 256 * 1024;

/** Runs `run` over items in batches of about BATCH_TEXT characters, one batch after another; answers the results in order. */
export async function runInTextBatches<Item, Result>(
  items: Item[],
  sizeOf: (item: Item) => number,
  run: (batch: Item[], textLength: number) => Promise<Result[]>,
): Promise<Result[]> {
  const results: Result[] = [];
  let batch: Item[] = [];
  let size = 0;
  for (const item of items) {
    batch.push(item);
    size += sizeOf(item);
    if (size < BATCH_TEXT) continue;
    for (const result of await run(batch, size)) results.push(result);
    batch = [];
    size = 0;
  }
  if (batch.length > 0) for (const result of await run(batch, size)) results.push(result);
  return results;
}

/** Ends the pool's threads (at shutdown; a later task starts it again). */
export async function closeCpuPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}
