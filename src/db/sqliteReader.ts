// SQLite runs a statement on the thread that calls it, so while one ranks thousands of
// rows every other request waits. Search's ranking (bm25 over up to 1,000 sections) took
// a third of the request thread under the mixed load on a slow day (6 ms a query,
// bench/RESULTS.md, 2026-11-27, session 33): such reads run on a thread of their own,
// on a read-only connection to the same file. WAL lets it read beside the writer, and a
// statement sent after a commit sees what it committed. A read inside a transaction
// stays on the transaction's connection, which alone sees its writes.
//
// The same thread checkpoints the write-ahead log: SQLite otherwise does it inside the
// commit that fills the log past 1,000 pages, on the request thread, copying the pages
// into the database file and syncing it (10-17 ms on this machine's disk, 100 ms for a
// log of 3,000 commits; every second or two under the mixed load), while every other
// request waits.
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
 * How long after a write of this process the write-ahead log is checkpointed on the
 * reader thread: a second's writes of the mixed load are a few hundred pages.
 */
const CHECKPOINT_AFTER_WRITE_MS = 500;

export interface AttachedReader {
  close(): Promise<void>;
  /**
   * Asks for a checkpoint of the write-ahead log on the reader thread soon; however
   * many writes ask meanwhile, one runs at a time. Absent where reads stay on the
   * request thread, whose connection then checkpoints as SQLite does by default.
   */
  checkpointSoon?: () => void;
}

/** The reader thread, started at the first task: an idle one ends after a minute and gives its memory back (~15 MB). */
function poolOf(reader: Reader): Piscina {
  // One thread: on a small machine the request thread has the other core. Reads
  // waiting are handed to it at once, not each when the request thread has taken the
  // last one's answer: under load that thread is busy, and the reader sat idle between
  // reads while searches queued (bench/RESULTS.md, 2026-11-29).
  reader.pool ??= new Piscina({
    filename: new URL('./sqliteReaderThread.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: READS_HANDED_OVER_AT_ONCE,
  });
  return reader.pool;
}

/**
 * Lets `db` (SQLite on `file`) read and checkpoint on a reader thread. On one core the
 * thread would only take turns with the request thread, and each read would pay the
 * hand-over: reads stay where they are asked. `checkpointFailed` hands checkpoints back
 * to the request thread's connection, should the thread fail to make one.
 */
export function attachReader(db: Kysely<Database>, file: string, checkpointFailed: () => void): AttachedReader {
  if (availableParallelism() < 2) return { close: async () => {} };
  const reader: Reader = { file };
  readers.set(db, reader);
  let checkpointing = false;
  let failed = false;
  return {
    close: async () => {
      // A read asked after the database closed fails as it would on the closed connection, instead of starting a thread again.
      readers.delete(db);
      await reader.pool?.destroy();
    },
    checkpointSoon: () => {
      if (checkpointing || failed) return;
      checkpointing = true;
      setTimeout(() => {
        if (!readers.has(db)) return;
        poolOf(reader)
          .run({ file }, { name: 'checkpoint' })
          .catch(() => {
            if (!readers.has(db)) return;
            failed = true;
            checkpointFailed();
          })
          .finally(() => (checkpointing = false));
      }, CHECKPOINT_AFTER_WRITE_MS).unref();
    },
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
  const { sql, parameters } = query.compile(db);
  return poolOf(reader).run({ file: reader.file, sql, parameters });
}
