// Direct grants of a role on a space or collection to one user.
import { preparedQuery } from '../prepared.ts';
import type { Db, GrantRow } from '../schema.ts';

export async function upsertGrant(db: Db, grant: GrantRow): Promise<void> {
  await db
    .insertInto('content_grants')
    .values(grant)
    .onConflict((conflict) => conflict.columns(['target_kind', 'target_id', 'user_id']).doUpdateSet({ role: grant.role }))
    .execute();
}

const grantsOfUserQuery = preparedQuery<'organizationId' | 'userId', GrantRow>(
  (db, param) =>
    db
      .selectFrom('content_grants')
      .selectAll()
      .where('organization_id', '=', param('organizationId'))
      .where('user_id', '=', param('userId')),
  { remember: true },
);

export function grantsOfUser(db: Db, organizationId: string, userId: string): Promise<readonly GrantRow[]> {
  return grantsOfUserQuery(db, { organizationId, userId });
}

export async function deleteGrantsOn(db: Db, kind: GrantRow['target_kind'], targetIds: string[]): Promise<void> {
  if (targetIds.length === 0) return;
  await db.deleteFrom('content_grants').where('target_kind', '=', kind).where('target_id', 'in', targetIds).execute();
}

/** Moves grants with their targets to another organization, dropping those of people outside it. */
export async function moveGrants(
  db: Db,
  kind: GrantRow['target_kind'],
  targetIds: string[],
  organizationId: string,
): Promise<void> {
  if (targetIds.length === 0) return;
  await db
    .deleteFrom('content_grants')
    .where('target_kind', '=', kind)
    .where('target_id', 'in', targetIds)
    .where('user_id', 'not in', db.selectFrom('organization_members').select('user_id').where('organization_id', '=', organizationId))
    .execute();
  await db
    .updateTable('content_grants')
    .set({ organization_id: organizationId })
    .where('target_kind', '=', kind)
    .where('target_id', 'in', targetIds)
    .execute();
}

export async function deleteGrantsOfUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('content_grants').where('user_id', '=', userId).execute();
}

export async function deleteGrant(db: Db, kind: GrantRow['target_kind'], targetId: string, userId: string): Promise<void> {
  await db.deleteFrom('content_grants').where('target_kind', '=', kind).where('target_id', '=', targetId).where('user_id', '=', userId).execute();
}
