// Administration from the command line: the first organization, users and tokens.
// No API caller is involved, so these take the database and the clock directly.
import { Conflict, NotFound } from '../errors.ts';
import { countAdmins, findMembership, insertMembership, updateMembership } from '../db/repos/members.ts';
import { findOrganizationById, lockOrganization } from '../db/repos/organizations.ts';
import { findUserById } from '../db/repos/users.ts';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.ts';
import { isoNow, type Clock } from '../lib/clock.ts';
import type { Role } from '../lib/roles.ts';
import { createOrganizationFor } from './organizations.ts';
import { findOrCreateUser, issueApiToken } from './users.ts';

export interface PersonInput {
  email: string;
  name: string;
}

export function bootstrap(db: Kysely<Database>, clock: Clock, input: PersonInput & { organizationTitle: string }) {
  return db.transaction().execute(async (trx) => {
    const { user } = await findOrCreateUser(trx, clock, { email: input.email, displayName: input.name });
    const organization = await createOrganizationFor(trx, clock, user.id, { title: input.organizationTitle });
    const { id: tokenId, token } = await issueApiToken(trx, clock, user.id, 'bootstrap');
    return { organization, user, token, tokenId };
  });
}

async function setMembership(trx: Db, clock: Clock, organizationId: string, userId: string, role: Role) {
  await lockOrganization(trx, organizationId);
  const membership = await findMembership(trx, organizationId, userId);
  if (!membership) {
    await insertMembership(trx, {
      organization_id: organizationId,
      user_id: userId,
      role,
      sso: 0,
      disabled: 0,
      joined_at: isoNow(clock),
      last_seen_at: null,
    });
    return;
  }
  if (membership.role === 'admin' && role !== 'admin' && (await countAdmins(trx, organizationId)) <= 1) {
    throw new Conflict('Cannot demote the last administrator of the organization');
  }
  await updateMembership(trx, organizationId, userId, { role });
}

export function addUser(
  db: Kysely<Database>,
  clock: Clock,
  input: PersonInput & { organizationId: string; role: Role },
) {
  return db.transaction().execute(async (trx) => {
    if (!(await findOrganizationById(trx, input.organizationId))) {
      throw new NotFound(`No organization with id "${input.organizationId}"`);
    }
    const { user } = await findOrCreateUser(trx, clock, { email: input.email, displayName: input.name });
    await setMembership(trx, clock, input.organizationId, user.id, input.role);
    const { id: tokenId, token } = await issueApiToken(trx, clock, user.id, 'add-user');
    return { user, token, tokenId };
  });
}

export async function createToken(db: Kysely<Database>, clock: Clock, userId: string, label?: string) {
  const user = await findUserById(db, userId);
  if (!user) throw new NotFound(`No user with id "${userId}"`);
  return { user, ...(await issueApiToken(db, clock, user.id, label)) };
}
