// Reads that rank many rows (search) run beside the requests: on SQLite on a thread of
// their own with a connection of their own, which must see every commit made before
// them; inside a transaction on the transaction's connection, which alone sees its writes.
// The same thread checkpoints SQLite's write-ahead log, which a commit on the request
// thread would otherwise do.
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { readBesideRequests } from '../../src/db/sqliteReader.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { bootstrap } from '../../src/services/accounts.ts';
import { useTestDatabase } from '../helpers/app.ts';
import { engine } from '../helpers/database.ts';

const opened = useTestDatabase();

describe('reads beside the requests', () => {
  it('see what was committed just before them', async () => {
    const { organization } = await bootstrap(opened.database.db, systemClock, { organizationTitle: 'Acme', email: 'a@a.test', name: 'A' });
    const title = () => readBesideRequests(opened.database.db, sql<{ title: string }>`select title from organizations where id = ${organization.id}`);
    expect(await title()).toEqual([{ title: 'Acme' }]);
    await sql`update organizations set title = 'Acme Docs' where id = ${organization.id}`.execute(opened.database.db);
    expect(await title()).toEqual([{ title: 'Acme Docs' }]);
  });

  it('inside a transaction, see what the transaction wrote and has not committed', async () => {
    const { organization } = await bootstrap(opened.database.db, systemClock, { organizationTitle: 'Beta', email: 'b@b.test', name: 'B' });
    await opened.database.db.transaction().execute(async (trx) => {
      await sql`update organizations set title = 'Beta Renamed' where id = ${organization.id}`.execute(trx);
      expect(await readBesideRequests(trx, sql<{ title: string }>`select title from organizations where id = ${organization.id}`)).toEqual([{ title: 'Beta Renamed' }]);
    });
  });

  // On one core SQLite reads where they are asked (sqliteReader.ts).
  it.runIf(availableParallelism() > 1)('leave the request thread free to answer others while they run', async () => {
    let turns = 0;
    const ticking = setInterval(() => turns++, 5);
    try {
      // Counting to 3 million in SQL: a few hundred milliseconds of one statement.
      const [row] = await readBesideRequests(
        opened.database.db,
        sql<{ counted: number }>`with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) select count(*) as counted from n`,
      );
      expect(Number(row.counted)).toBe(3_000_000);
    } finally {
      clearInterval(ticking);
    }
    expect(turns).toBeGreaterThan(5);
  });

  // A search makes two reads in turn, and under load many searches wait at once: were
  // each read handed over only when the request thread had taken the last one's answer,
  // the thread would sit idle for as long as the request thread is busy. SQLite's reader
  // thread only: PostgreSQL reads in its own process, and a query is sent on a later turn.
  it.runIf(availableParallelism() > 1 && engine === 'sqlite')('run one after another while the request thread is busy, without waiting for it between them', async () => {
    const ranAt = sql<{ at: string }>`select strftime('%Y-%m-%dT%H:%M:%fZ', 'now') as at`;
    await readBesideRequests(opened.database.db, ranAt);
    const reads = [1, 2, 3].map(() => readBesideRequests(opened.database.db, ranAt));
    const busyUntil = Date.now() + 1_000;
    while (Date.now() < busyUntil) {
      // the request thread held, as a burst of requests holds it
    }
    for (const [{ at }] of await Promise.all(reads)) expect(Date.parse(at)).toBeLessThan(busyUntil);
  });

  // SQLite's default copies the log into the database file inside the commit that fills
  // it past 1,000 pages, and until then leaves it all in the log. Here the request
  // thread's connection never checkpoints, and a few writes reach the file soon after.
  it.runIf(availableParallelism() > 1 && engine === 'sqlite')('copy the write-ahead log into the database file soon after writes, and never inside a commit', async () => {
    const { db } = opened.database;
    expect(await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db).then(({ rows }) => rows)).toEqual([{ wal_autocheckpoint: 0 }]);
    await sql`create table checkpoint_probe (body text)`.execute(db);
    const file = join(opened.testDatabase.env.QUIRE_DATA_DIR, 'quire.db');
    const before = statSync(file).size;
    // About 200 pages of 4 KB, each row its own commit: a fifth of what SQLite waits for.
    for (let row = 0; row < 200; row++) await sql`insert into checkpoint_probe (body) values (${'x'.repeat(4000)})`.execute(db);
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 200 * 4000), { timeout: 10_000, interval: 50 });
  });
});
