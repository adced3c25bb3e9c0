// `npm run bench`: every benchmark, on SQLite and on PostgreSQL when reachable.
// BENCH_SECONDS sets the measured duration of each load (default 10).
import { benchContent } from './content.ts';
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

console.log('Revision store: a space of N pages, 200 single-page edits merged through change requests, a 100-page three-way merge');
for (const open of engines.map((engine) => openers[engine as keyof typeof openers])) {
  for (const pages of [500, 5000]) {
    const result = await withDatabase(open, (database) => benchContent(database, pages));
    if (!result) continue;
    console.log(
      `  ${result.engine.padEnd(8)} ${String(pages).padStart(5)} pages: ${result.bytesPerEdit.toFixed(0)} bytes stored per edit, ` +
        `page list read ${result.readPagesMs.toFixed(1)} ms, 100-page merge ${result.mergeMs.toFixed(1)} ms (target < 250 ms)`,
    );
  }
}
