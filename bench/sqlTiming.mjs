// Loaded into a `quire serve` under benchmark (node --import) when BENCH_SQL_TIMING is
// set: times every better-sqlite3 statement the server runs, by SQL text. On SIGUSR2 it
// writes the totals so far to BENCH_SQL_TIMING_FILE, so the benchmark can take the
// difference between two snapshots around its measured run. Plain JavaScript: it runs
// before Quire's own loader has registered TypeScript.
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const outputFile = process.env.BENCH_SQL_TIMING_FILE;
/** SQL text (whitespace folded, parameter lists shortened) → { count, milliseconds }. */
const totals = new Map();

const prepare = Database.prototype.prepare;
Database.prototype.prepare = function timedPrepare(source, ...rest) {
  const statement = prepare.call(this, source, ...rest);
  const key = source.replace(/\s+/g, ' ').replace(/\?(, \?)+/g, '?…').trim();
  for (const method of ['all', 'get', 'run']) {
    const run = statement[method];
    statement[method] = function timedRun(...args) {
      const startedAt = process.hrtime.bigint();
      try {
        return run.apply(this, args);
      } finally {
        const entry = totals.get(key) ?? { count: 0, milliseconds: 0 };
        entry.count++;
        entry.milliseconds += Number(process.hrtime.bigint() - startedAt) / 1e6;
        totals.set(key, entry);
      }
    };
  }
  return statement;
};

// Written whole, then renamed into place: the benchmark reads the file once it exists.
process.on('SIGUSR2', () => {
  if (!outputFile) return;
  writeFileSync(`${outputFile}.partial`, JSON.stringify(Object.fromEntries(totals)));
  renameSync(`${outputFile}.partial`, outputFile);
});
