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
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { preparedQuery } from '../../src/db/prepared.ts';
import { engineOf } from '../../src/db/dialect.ts';

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
