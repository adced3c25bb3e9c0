// An organization's access version: a number that moves whenever anything a member's
// content roles depend on beyond the member's own row changes (the organization's
// collections, its content grants, its teams' owners). A read under /spaces/{spaceId}
// then reads the version with the token instead of those rows, and takes the rows
// from what this process read under the same version (db/repos/contentStanding.ts).
// Triggers move it, so every writer moves it: the API, the CLI, another process, a
// cascade from a deleted user or team, and SQL run by hand.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { engineOf } from '../dialect.ts';

/** The tables whose rows a standing is read from, with how a row names its organization. */
const ORGANIZATION_OF = {
  collections: (row: string) => sql.raw(`${row}.organization_id`),
  content_grants: (row: string) => sql.raw(`${row}.organization_id`),
  teams: (row: string) => sql.raw(`${row}.organization_id`),
  team_members: (row: string) => sql.raw(`(select t.organization_id from teams t where t.id = ${row}.team_id)`),
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table organizations add column access_version integer not null default 0`.execute(db);
  const bump = (organization: RawBuilder<unknown>) =>
    sql`update organizations set access_version = access_version + 1 where id = ${organization};`;
  if (engineOf(db) === 'postgres') {
    for (const [table, organizationOf] of Object.entries(ORGANIZATION_OF)) {
      const fn = sql.raw(`bump_access_version_${table}`);
      // Its tables are found where Quire's are, whatever the search_path of the session that writes.
      await sql`create function ${fn}() returns trigger language plpgsql set search_path from current as $$
        begin
          if tg_op <> 'INSERT' then ${bump(organizationOf('old'))} end if;
          if tg_op <> 'DELETE' then ${bump(organizationOf('new'))} end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger ${sql.raw(`${table}_access_version`)} after insert or update or delete on ${sql.table(table)}
        for each row execute function ${fn}()`.execute(db);
    }
    return;
  }
  for (const [table, organizationOf] of Object.entries(ORGANIZATION_OF)) {
    const trigger = (event: string, body: RawBuilder<unknown>) =>
      sql`create trigger ${sql.raw(`${table}_access_version_${event}`)} after ${sql.raw(event)} on ${sql.table(table)} begin ${body} end`.execute(db);
    await trigger('insert', bump(organizationOf('new')));
    await trigger('update', sql`${bump(organizationOf('old'))} ${bump(organizationOf('new'))}`);
    await trigger('delete', bump(organizationOf('old')));
  }
}
