// A revision's tag library (GitBook's revision tags, Git Sync's .gitbook/tags.yaml): an
// object in the content store, as the files list is; none for a revision without tags,
// which every revision before this was.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('revisions').addColumn('tags_hash', 'text').execute();
}
