// Reads that rank many rows (search) run beside the requests: on SQLite on a thread of
// their own with a connection of their own, which must see every commit made before
// them; inside a transaction on the transaction's connection, which alone sees its writes.
import { availableParallelism } from 'node:os';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
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
});
