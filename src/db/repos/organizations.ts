// Organizations and their e-mail domains.
import { sql, type RawBuilder } from 'kysely';
import type { Db, OrganizationWithAccessRow, OrganizationRow } from '../schema.ts';
import { lockRow } from '../dialect.ts';
import { preparedQuery } from '../prepared.ts';

/** Selects is_member from a query that left-joins organization_members as m. */
export const isMember = sql<number | null>`case when m.user_id is null then null else 1 end`.as('is_member');

/** Selects owns_team for organizations as o; `user` is a user id or a column reference. */
export function ownsTeam(user: string | RawBuilder<unknown>) {
  return sql<number>`case when exists (
    select 1 from team_members tm inner join teams t on t.id = tm.team_id
    where t.organization_id = o.id and tm.user_id = ${user} and tm.role = 'owner'
  ) then 1 else 0 end`.as('owns_team');
}

export async function insertOrganization(db: Db, organization: OrganizationRow): Promise<void> {
  await db.insertInto('organizations').values(organization).execute();
  await replaceEmailDomainIndex(db, organization.id, JSON.parse(organization.email_domains) as string[]);
}

export function findOrganizationById(db: Db, organizationId: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', organizationId).executeTakeFirst();
}

const organizationWithAccessQuery = preparedQuery<'organizationId' | 'userId', OrganizationWithAccessRow>(
  (db, param) =>
    db
      .selectFrom('organizations as o')
      .leftJoin('organization_members as m', (join) =>
        join.onRef('m.organization_id', '=', 'o.id').on('m.user_id', '=', param('userId')),
      )
      .selectAll('o')
      .select(['m.role as member_role', isMember, ownsTeam(param('userId'))])
      .where('o.id', '=', param('organizationId')),
  { remember: true },
);

/** The organization and the user's access to it, in one round trip (most requests run it). */
export async function findOrganizationWithAccess(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<OrganizationWithAccessRow | undefined> {
  return (await organizationWithAccessQuery(db, { organizationId, userId }))[0];
}

/** The organizations a user belongs to, for the pagination helper; sorted by the caller. */
export function organizationsOfUserQuery(db: Db, userId: string) {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .selectAll('o')
    .select([
      'm.role as member_role',
      sql<number>`1`.as('is_member'),
      ownsTeam(userId),
    ])
    .where('m.user_id', '=', userId);
}

export async function updateOrganization(
  db: Db,
  organizationId: string,
  changes: Partial<Omit<OrganizationRow, 'id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('organizations').set(changes).where('id', '=', organizationId).execute();
  if (changes.email_domains !== undefined) {
    await replaceEmailDomainIndex(db, organizationId, JSON.parse(changes.email_domains) as string[]);
  }
}

export function findOrganizationByHostname(db: Db, hostname: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('hostname', '=', hostname).executeTakeFirst();
}

export async function isHostnameTaken(db: Db, hostname: string, exceptOrganizationId?: string): Promise<boolean> {
  const row = await db
    .selectFrom('organizations')
    .select('id')
    .where('hostname', '=', hostname)
    .$if(exceptOrganizationId !== undefined, (q) => q.where('id', '!=', exceptOrganizationId!))
    .executeTakeFirst();
  return row !== undefined;
}

/** Organizations claiming an e-mail domain, with the user's access to each. */
export function findOrganizationsByEmailDomain(
  db: Db,
  domain: string,
  userId: string,
): Promise<OrganizationWithAccessRow[]> {
  return db
    .selectFrom('organization_email_domains as d')
    .innerJoin('organizations as o', 'o.id', 'd.organization_id')
    .leftJoin('organization_members as m', (join) =>
      join.onRef('m.organization_id', '=', 'o.id').on('m.user_id', '=', userId),
    )
    .selectAll('o')
    .select([
      'm.role as member_role',
      isMember,
      sql<number>`0`.as('owns_team'),
    ])
    .where('d.domain', '=', domain)
    .orderBy('o.created_at', 'desc')
    .orderBy('o.id', 'desc')
    .limit(1000)
    .execute();
}

async function replaceEmailDomainIndex(db: Db, organizationId: string, domains: string[]): Promise<void> {
  await db.deleteFrom('organization_email_domains').where('organization_id', '=', organizationId).execute();
  if (domains.length > 0) {
    await db
      .insertInto('organization_email_domains')
      .values(domains.map((domain) => ({ organization_id: organizationId, domain })))
      .execute();
  }
}

/** Holds the organization's row until the transaction ends (membership changes race otherwise). */
export function lockOrganization(db: Db, organizationId: string): Promise<void> {
  return lockRow(db, 'organizations', organizationId);
}
