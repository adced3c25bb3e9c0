// SQLite runs a statement on the thread that calls it, so while one ranks thousands of
// rows every other request waits. Search's ranking (bm25 over up to 1,000 sections) took
// a third of the request thread under the mixed load on a slow day (6 ms a query,
// bench/RESULTS.md, 2026-11-27, session 33): such reads run on a thread of their own,
// on a read-only connection to the same file. WAL lets it read beside the writer, and a
// statement sent after a commit sees what it committed. A read inside a transaction
// stays on the transaction's connection, which alone sees its writes.
import { availableParallelism } from 'node:os';
import type { Kysely, RawBuilder } from 'kysely';
import { Piscina } from 'piscina';
import type { Database, Db } from './schema.ts';

interface Reader {
  file: string;
  pool?: Piscina;
}

const readers = new WeakMap<Kysely<Database>, Reader>();

/** Reads queued in the reader thread itself; it runs them one after another. */
const READS_HANDED_OVER_AT_ONCE = 8;

/**
 * Lets `db` (SQLite on `file`) read on a reader thread; answers how to end the thread.
 * On one core the thread would only take turns with the request thread, and each read
 * would pay the hand-over: reads stay where they are asked.
 */
export function attachReader(db: Kysely<Database>, file: string): () => Promise<void> {
  if (availableParallelism() < 2) return async () => {};
  const reader: Reader = { file };
  readers.set(db, reader);
  return async () => {
    // A read asked after the database closed fails as it would on the closed connection, instead of starting a thread again.
    readers.delete(db);
    await reader.pool?.destroy();
  };
}

/**
 * The rows of a read, run on the reader thread when `db` is a SQLite database's own
 * handle, and where it is given otherwise (PostgreSQL, which runs it in its own
 * process anyway; a transaction).
 */
export async function readBesideRequests<Row>(db: Db, query: RawBuilder<Row>): Promise<Row[]> {
  const reader = readers.get(db as Kysely<Database>);
  if (!reader) return (await query.execute(db)).rows;
  // One thread: on a small machine the request thread has the other core. An idle
  // thread ends after a minute and gives its memory back (~15 MB); the next read
  // starts it again in a few milliseconds. Reads waiting are handed to it at once, not
  // each when the request thread has taken the last one's answer: under load that
  // thread is busy, and the reader sat idle between reads while searches queued
  // (bench/RESULTS.md, 2026-11-29).
  reader.pool ??= new Piscina({
    filename: new URL('./sqliteReaderThread.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: READS_HANDED_OVER_AT_ONCE,
  });
  const { sql, parameters } = query.compile(db);
  return reader.pool.run({ file: reader.file, sql, parameters });
}
