// Loaded into a `quire serve` on PostgreSQL under the mixed load (node --import): how
// long each taking of one of the pool's connections waited for it (a statement outside a
// transaction takes one, a transaction one for all its statements), counted by whole
// millisecond, and the most callers that waited at once. On SIGUSR2 it writes the counts
// so far and the queue's worst since the last report to BENCH_POOL_WAIT_FILE, so the
// benchmark can take the measured run's share between two reports. A read that waits
// here waits for a connection to come free: for an answer of the database, and for the
// request thread to run the callback that ends its user's turn.
// Plain JavaScript: it runs before Quire's own loader has registered TypeScript.
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const outputFile = process.env.BENCH_POOL_WAIT_FILE;
if (isMainThread && outputFile) {
  const { Pool } = createRequire(import.meta.url)('pg');
  /** Whole milliseconds waited → how many connections were handed over after that wait. */
  const waits = new Map();
  let mostWaiting = 0;
  const count = (startedAt) => {
    const milliseconds = Math.floor(performance.now() - startedAt);
    waits.set(milliseconds, (waits.get(milliseconds) ?? 0) + 1);
  };
  const connect = Pool.prototype.connect;
  // pool.query and Kysely's driver both take their connection through connect.
  Pool.prototype.connect = function timedConnect(callback) {
    const startedAt = performance.now();
    const connecting = callback
      ? connect.call(this, (error, client, release) => (count(startedAt), callback(error, client, release)))
      : connect.call(this).then((client) => (count(startedAt), client));
    // A caller that found no idle connection is in the queue now.
    mostWaiting = Math.max(mostWaiting, this.waitingCount);
    return connecting;
  };
  process.on('SIGUSR2', () => {
    writeFileSync(`${outputFile}.partial`, JSON.stringify({ waits: Object.fromEntries(waits), mostWaiting }));
    renameSync(`${outputFile}.partial`, outputFile);
    mostWaiting = 0;
  });
}
