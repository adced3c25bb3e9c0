// `npm run bench`: every benchmark, on SQLite and on PostgreSQL when reachable.
// BENCH_SECONDS sets the measured duration of each load (default 10).
import { benchOrganizationRead } from './org-read.ts';
import { benchSpaceList } from './space-list.ts';
import { postgresDatabase, sqliteDatabase, type BenchDatabase } from './support.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');

async function withDatabase<T>(open: () => Promise<BenchDatabase | undefined>, run: (db: BenchDatabase) => Promise<T>) {
  const database = await open();
  if (!database) return undefined;
  try {
    return await run(database);
  } finally {
    await database.drop();
  }
}

console.log(`Authenticated GET /v1/orgs/{id} against a bare node:http server (${seconds} s each, 32 connections)`);
const openers = { sqlite: sqliteDatabase, postgres: postgresDatabase };
for (const open of engines.map((engine) => openers[engine as keyof typeof openers])) {
  const result = await withDatabase(open, (database) => benchOrganizationRead(database, seconds));
  if (!result) {
    console.log('  postgres: not reachable, skipped');
    continue;
  }
  console.log(
    `  ${result.engine.padEnd(8)} bare ${result.bare.toFixed(0)} req/s, quire ${result.quire.toFixed(0)} req/s, ` +
      `ratio ${(result.ratio * 100).toFixed(1)}% (target ≥ 35% on sqlite), quire p99 ${result.p99} ms, errors ${result.errors}`,
  );
}

console.log('Listing 10,000 spaces, 100 per page, to the last page (median of 5 walks)');
for (const open of engines.map((engine) => openers[engine as keyof typeof openers])) {
  const result = await withDatabase(open, (database) => benchSpaceList(database));
  if (!result) continue;
  console.log(
    `  ${result.engine.padEnd(8)} page 1 ${result.firstPageMs.toFixed(2)} ms, page 50 ${result.middlePageMs.toFixed(2)} ms, ` +
      `page 100 ${result.lastPageMs.toFixed(2)} ms (last / first ${result.ratio.toFixed(2)})`,
  );
}
