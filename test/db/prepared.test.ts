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
