// Link invites: whoever holds an invite's id may join its organization with its role.
import type { Db, InviteRow } from '../schema.ts';
import type { Role } from '../../lib/roles.ts';

export async function insertInvite(db: Db, invite: InviteRow): Promise<void> {
  await db.insertInto('organization_invites').values(invite).execute();
}

export function findInvite(db: Db, organizationId: string, inviteId: string): Promise<InviteRow | undefined> {
  return db
    .selectFrom('organization_invites')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', inviteId)
    .executeTakeFirst();
}

export function invitesQuery(db: Db, organizationId: string) {
  return db.selectFrom('organization_invites as i').selectAll('i').where('i.organization_id', '=', organizationId);
}

export async function updateInviteRole(db: Db, inviteId: string, role: Role | null): Promise<void> {
  await db.updateTable('organization_invites').set({ role }).where('id', '=', inviteId).execute();
}

export async function deleteInvite(db: Db, inviteId: string): Promise<void> {
  await db.deleteFrom('organization_invites').where('id', '=', inviteId).execute();
}
