// The per-request queries remember results until the database changes: a change made
// by this process or by another one sharing the database is seen by the next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTokenOwner, findTokenOwnerWithOrganization } from '../../src/db/repos/apiTokens.ts';
import type { DatabaseHandle } from '../../src/db/index.ts';
import { hashToken } from '../../src/lib/ids.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { addUser, bootstrap } from '../../src/services/accounts.ts';
import { revokeToken } from '../../src/services/users.ts';
import { deleteMembership, updateMembership } from '../../src/db/repos/members.ts';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.ts';
import { preparedQuery } from '../../src/db/prepared.ts';
import { engineOf } from '../../src/db/dialect.ts';
import { sql } from 'kysely';

let database: TestDatabase;
let first: DatabaseHandle;
let second: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  first = await database.open();
  second = await database.open();
});

afterAll(async () => {
  await first.close();
  await second.close();
  await database.drop();
});

describe('prepared per-request queries', () => {
  it('see a token revoked through another connection at once', async () => {
    const { token } = await bootstrap(first.db, systemClock, { organizationTitle: 'Acme', email: 'a@a.test', name: 'A' });
    const tokenHash = hashToken(token);
    expect(await findTokenOwner(first.db, tokenHash)).toBeDefined();
    expect(await findTokenOwner(first.db, tokenHash)).toBeDefined();
    await revokeToken(second.db, systemClock, { token });
    expect(await findTokenOwner(first.db, tokenHash)).toBeUndefined();
  });

  it('see a role change and a removal, made here or elsewhere, at once', async () => {
    const { organization } = await bootstrap(first.db, systemClock, { organizationTitle: 'Beta', email: 'b@b.test', name: 'B' });
    const member = await addUser(first.db, systemClock, { organizationId: organization.id, email: 'm@b.test', name: 'M', role: 'read' });
    const tokenHash = hashToken(member.token);
    const read = () => findTokenOwnerWithOrganization(first.db, tokenHash, organization.id);
    expect((await read())?.organization?.member_role).toBe('read');
    await updateMembership(first.db, organization.id, member.user.id, { role: 'edit' });
    expect((await read())?.organization?.member_role).toBe('edit');
    await deleteMembership(second.db, organization.id, member.user.id);
    expect((await read())?.organization?.is_member).toBeNull();
  });

  it('make what the caller keeps of a row once while it is remembered, and afresh once another connection changes it', async () => {
    const { user } = await bootstrap(first.db, systemClock, { organizationTitle: 'Delta', email: 'd@d.test', name: 'Dee' });
    let made = 0;
    const nameOf = preparedQuery<'userId', { display_name: string }, { name: string; made: number }>(
      (db, param) => db.selectFrom('users').select('display_name').where('id', '=', param('userId')),
      { remember: true, made: (row) => ({ name: row.display_name, made: ++made }) },
    );
    const [before] = await nameOf(first.db, { userId: user.id });
    const [again] = await nameOf(first.db, { userId: user.id });
    expect(again).toEqual({ name: 'Dee', made: expect.any(Number) });
    // SQLite remembers the row, and with it what was made; PostgreSQL reads afresh.
    if (engineOf(first.db) === 'sqlite') expect(again).toBe(before);
    else expect(made).toBe(2);
    await second.db.updateTable('users').set({ display_name: 'Dana' }).where('id', '=', user.id).execute();
    expect((await nameOf(first.db, { userId: user.id }))[0]).toMatchObject({ name: 'Dana' });
  });

  it('read inside a transaction through that transaction', async () => {
    const { token } = await bootstrap(first.db, systemClock, { organizationTitle: 'Gamma', email: 'c@c.test', name: 'C' });
    const tokenHash = hashToken(token);
    const seenInside = await first.db.transaction().execute(async (trx) => {
      await revokeToken(trx, systemClock, { token });
      return findTokenOwner(trx, tokenHash);
    });
    expect(seenInside).toBeUndefined();
    expect(await findTokenOwner(first.db, tokenHash)).toBeUndefined();
  });
});

describe.runIf(engine === 'postgres')('statements on PostgreSQL', () => {
  const preparedTexts = async (connection: typeof first.db) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection)).rows.map((row) => row.statement);

  it('are parsed once on a connection and run by name after, in a transaction as outside one', async () => {
    await first.db.connection().execute(async (connection) => {
      const titles = connection.selectFrom('organizations').select('title').where('id', '=', 'none');
      expect(await titles.execute()).toEqual([]);
      expect(await titles.execute()).toEqual([]);
      const insert = connection.insertInto('users').values({ id: 'u-prepared', email: 'p@p.test', display_name: 'P', created_at: new Date().toISOString() });
      await connection.transaction().execute((trx) => trx.executeQuery(insert.compile()));
      const texts = await preparedTexts(connection);
      expect(texts.filter((text) => text === titles.compile().sql)).toHaveLength(1);
      expect(texts).toContain(insert.compile().sql);
    });
  });

  it('run by the per-request queries on the pool are prepared by name as well', async () => {
    const fresh = await database.open();
    try {
      // One query at a time on a new pool: every one of them runs on its one connection.
      const titleOf = preparedQuery<'id', { title: string }>((db, param) => db.selectFrom('organizations').select('title').where('id', '=', param('id')));
      expect(await titleOf(fresh.db, { id: 'none' })).toEqual([]);
      expect(await titleOf(fresh.db, { id: 'none' })).toEqual([]);
      const texts = await preparedTexts(fresh.db);
      expect(texts.filter((text) => text.startsWith('select "title" from "organizations"'))).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it('without parameters run as sent, so a text of several statements still runs', async () => {
    await first.db.connection().execute(async (connection) => {
      await sql`create temporary table several (n int); insert into several values (7)`.execute(connection);
      expect((await sql<{ n: number }>`select n from several`.execute(connection)).rows).toEqual([{ n: 7 }]);
      expect((await preparedTexts(connection)).some((text) => text.includes('several'))).toBe(false);
    });
  });

  it('beyond 200 texts on a connection run unnamed, and answer as before', async () => {
    const fresh = await database.open();
    try {
      await fresh.db.connection().execute(async (connection) => {
        for (let n = 0; n < 210; n++) {
          const { rows } = await sql<{ n: number }>`select ${n}::int + ${sql.raw(String(n))} as n`.execute(connection);
          expect(rows).toEqual([{ n: 2 * n }]);
        }
        const texts = await preparedTexts(connection);
        expect(texts).toHaveLength(200);
        expect(texts.some((text) => text.includes('+ 209 as n'))).toBe(false);
      });
    } finally {
      await fresh.close();
    }
  });
});
