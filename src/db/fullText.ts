// Full-text search, the one place its SQL differs by engine. SQLite: an FTS5 table
// over search_sections (external content, kept by triggers), Porter stemming, ranked
// by bm25 with the page title weighing most. PostgreSQL: a stored tsvector (English
// stemming; title weight A, heading B, body D) with a GIN index, ranked by ts_rank.
// The organization (or the spaces) searched is part of the match on both (migration
// 0018), so a word's cost follows the pages of the organization searched, not of every
// organization in the database. PostgreSQL: lexemes 'o:<organization>' and 's:<space>'
// in each vector, which the GIN index intersects with the words. SQLite: each
// organization's sections have ids in a range of their own, which FTS5 seeks to; a
// token on every section instead cost ~10 ms a query at 100,000 pages, because bm25
// counts the rows of every phrase of the match to weigh it, the scope's included.
import { createHash } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import type { SearchQuery } from '../content/search.ts';
import { engineOf } from './dialect.ts';
import type { Database, Db, SectionHit } from './schema.ts';
import { readBesideRequests } from './sqliteReader.ts';

/** Section ids an organization's range holds on SQLite; ranges stay below 2^52, so ids are exact JavaScript numbers. */
const RANGE_SIZE = 2 ** 30;
const RANGES = 2 ** 22;

/**
 * The organization's range of section ids on SQLite, from a hash of its id. Two
 * organizations may share one (among 1,000 organizations, one chance in eight that
 * some pair does): they then search each other's range, and the join leaves out what
 * is not theirs.
 * The ids written depend on this rule: changing it needs a migration that moves them.
 */
export function sectionIdRange(organizationId: string): { first: number; last: number } {
  const first = (createHash('sha256').update(organizationId).digest().readUInt32BE(0) % RANGES) * RANGE_SIZE;
  return { first, last: first + RANGE_SIZE - 1 };
}

type SectionInsert = Omit<Insertable<Database['search_sections']>, 'id'>;

/** Writes sections of one organization; on SQLite each takes the next id of the organization's range. */
export async function insertSections(trx: Db, organizationId: string, rows: SectionInsert[]): Promise<void> {
  if (rows.length === 0) return;
  if (engineOf(trx) === 'postgres') {
    await trx.insertInto('search_sections').values(rows).execute();
    return;
  }
  const next = await nextSectionId(trx, organizationId);
  await trx.insertInto('search_sections').values(rows.map((row, index) => ({ ...row, id: next + index }))).execute();
}

async function nextSectionId(trx: Db, organizationId: string): Promise<number> {
  const { first, last } = sectionIdRange(organizationId);
  const row = await trx.selectFrom('search_sections').select((eb) => eb.fn.max('id').as('top')).where('id', '>=', first).where('id', '<=', last).executeTakeFirst();
  return row?.top === null || row?.top === undefined ? first : Number(row.top) + 1;
}

/** Moves spaces' sections to another organization: on SQLite into its range, one statement that keeps their order. */
export async function moveSections(trx: Db, spaceIds: string[], organizationId: string): Promise<void> {
  if (spaceIds.length === 0) return;
  if (engineOf(trx) === 'postgres') {
    await trx.updateTable('search_sections').set({ organization_id: organizationId }).where('space_id', 'in', spaceIds).execute();
    return;
  }
  const next = await nextSectionId(trx, organizationId);
  await sql`update search_sections set id = ${next} - 1 + moved.place, organization_id = ${organizationId}
    from (select id as old_id, row_number() over (order by id) as place from search_sections where space_id in (${sql.join(spaceIds)})) as moved
    where search_sections.id = moved.old_id`.execute(trx);
}

/** FTS5 syntax: every term quoted (so nothing typed is an operator), a prefix marked with *. */
function fts5Query(query: SearchQuery): string {
  return query.terms.map((term) => `"${term.words.join(' ')}"${term.prefix ? '*' : ''}`).join(' ');
}

/** FTS5 syntax: the words in the given columns, and in the spaces when the search is narrower than the organization. */
function fts5Scoped(match: string, columns: string, scope: Scope): string {
  const quoted = (id: string) => `"${id.replaceAll('"', '""')}"`;
  const words = `{${columns}} : (${match})`;
  return scope.spaceIds ? `space_id : (${scope.spaceIds.map(quoted).join(' OR ')}) AND ${words}` : words;
}

/** The scope as tsquery lexemes, as the index writes them: 'o:<organization>', or any of 's:<space>'. */
function tsScope(scope: Scope): string {
  const lexeme = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  return scope.spaceIds ? scope.spaceIds.map((id) => lexeme(`s:${id}`)).join(' | ') : lexeme(`o:${scope.organizationId}`);
}

/** tsquery syntax: words are letters and digits only, phrases joined by <->, a prefix marked :*. */
function tsQuery(query: SearchQuery): string {
  return query.terms
    .map((term) => {
      const words = term.words.map((word) => `'${word}'`);
      return term.words.length > 1 ? `(${words.join(' <-> ')})` : `${words[0]}${term.prefix ? ':*' : ''}`;
    })
    .join(' & ');
}

interface Scope {
  organizationId: string;
  /** Only these spaces (already known to be live spaces of the organization the caller reads). */
  spaceIds?: string[];
}

/** Matches beyond titles and headings ranked per query: bounds the cost of very common words. */
const BODY_CANDIDATES = 1_000;
/** Title and heading matches ranked per query on PostgreSQL, where ranking cannot stop early. */
const TITLE_CANDIDATES = 500;

/**
 * The best-ranked sections matching the query in live spaces of an organization;
 * `spaceIds`, when given, narrows to those spaces. Sections whose page title or
 * heading matches come first (ranked exactly on SQLite; among the first
 * TITLE_CANDIDATES on PostgreSQL); then matches in the text, ranked among the first
 * BODY_CANDIDATES of them in index order, so a word on nearly every page costs what a
 * rarer one does.
 */
export async function matchingSections(
  db: Db,
  query: SearchQuery,
  scope: Scope,
  limit: number,
): Promise<SectionHit[]> {
  if (query.terms.length === 0 || scope.spaceIds?.length === 0) return [];
  const fields = sql`ss.id, ss.space_id, s.title as space_title, s.revision_id as space_revision_id, ss.page_id, ss.section_index, ss.anchor, ss.page_title, ss.page_path, ss.heading, ss.body`;
  const [titleHits, bodyHits] =
    engineOf(db) === 'postgres' ? await postgresMatches(db, tsQuery(query), fields, scope, limit) : await sqliteMatches(db, fts5Query(query), fields, scope, limit);
  const seen = new Set(titleHits.map((hit) => hit.id));
  return [...titleHits, ...bodyHits.filter((hit) => !seen.has(hit.id))].slice(0, limit);
}

type Fragment = ReturnType<typeof sql>;

async function postgresMatches(db: Db, tsquery: string, fields: Fragment, scope: Scope, limit: number): Promise<[SectionHit[], SectionHit[]]> {
  // The GIN index intersects the words with the scope's lexeme. The live spaces (an
  // array computed once) are then tested on each row it finds, which leaves out deleted
  // spaces; it is written `space_id || ''` so the planner cannot AND in the space
  // index instead: that walks every row of the spaces.
  const spaceIds = scope.spaceIds
    ? sql`${scope.spaceIds}::text[]`
    : sql`array(select id from spaces where organization_id = ${scope.organizationId} and deleted_at is null)`;
  const q = sql`to_tsquery('english', ${tsquery})`;
  const inScope = sql`(${q} && ${tsScope(scope)}::tsquery)`;
  const inSpaces = sql`(ss.space_id || '') = any(${spaceIds})`;
  // ts_rank has no shortcut for the best few, so title matches too are ranked among the
  // first candidates. Each candidate is ranked as the index scan reads its row, and only
  // the winners are read again with their text and space: ranking after the join read
  // every candidate's row a second time (1,000 lookups of 1,000 ids, 3 ms a common word).
  // One statement, one round trip: the body's matches are looked for only when the
  // titles' do not fill the answer (a one-time filter, evaluated before the scan).
  const { rows } = await sql<SectionHit & { tier: number }>`
    with title_candidates as materialized (
      select ss.id, ts_rank(ss.title_document, ${q}) as rank from search_sections ss
      where ss.title_document @@ ${inScope} and ${inSpaces} limit ${TITLE_CANDIDATES}
    ), title_winners as (
      select id, rank from title_candidates order by rank desc, id limit ${limit}
    ), body_candidates as materialized (
      select ss.id, ts_rank(ss.document, ${q}) as rank from search_sections ss
      where (select count(*) from title_winners) < ${limit} and ss.document @@ ${inScope} and ${inSpaces} limit ${BODY_CANDIDATES}
    ), body_winners as (
      select id, rank from body_candidates order by rank desc, id limit ${limit}
    ), winners as (
      select id, rank, 0 as tier from title_winners union all select id, rank, 1 as tier from body_winners
    )
    select ${fields}, w.tier from winners w join search_sections ss on ss.id = w.id join spaces s on s.id = ss.space_id
    order by w.tier, w.rank desc, w.id`.execute(db);
  const hits = (tier: number) => rows.filter((row) => row.tier === tier).map(({ tier: _, ...hit }) => hit);
  return [hits(0), hits(1)];
}

/**
 * The `limit` best sections for an FTS5 match, among the first `candidates` matches in
 * index order when bounded. One statement ranks ids first and reads only the winners'
 * text after (sorting ids keeps each candidate's kilobytes out of the sort), so the
 * answer comes from one snapshot. The bounded form walks the matches once, ranking as
 * it goes. It runs on SQLite's reader thread, beside the requests (sqliteReader.ts).
 */
async function sqliteRanked(
  db: Db,
  fields: Fragment,
  match: string,
  inScope: Fragment,
  limit: number,
  candidates?: number,
): Promise<SectionHit[]> {
  // Each candidate's space is read from the index of section spaces, not from its row
  // (text inline): a common word's 1,000 candidates read ~2 MB of rows, half of a
  // search's time on the reader (migration 0023). The planner picks neither the index
  // nor this order on its own: it reads the row by rowid, or loops over the spaces.
  const matches = sql`
    select ss.id as id, bm25(search_fts, 10.0, 4.0, 1.0, 0.0) as score from search_fts
      cross join search_sections ss indexed by search_sections_space_of_id on ss.id = search_fts.rowid
      cross join spaces s on s.id = ss.space_id
    where search_fts match ${match} and ${inScope}`;
  return readBesideRequests(
    db,
    sql<SectionHit>`
    with ranked as (
      select id, score from (${matches}${candidates === undefined ? sql`` : sql` limit ${candidates}`})
      order by score, id
      limit ${limit}
    )
    select ${fields} from ranked r join search_sections ss on ss.id = r.id join spaces s on s.id = ss.space_id
    order by r.score, r.id`,
  );
}

async function sqliteMatches(db: Db, match: string, fields: Fragment, scope: Scope, limit: number) {
  // The match seeks the organization's range (and the spaces' token); the join checks the space is live and still the organization's.
  const { first, last } = sectionIdRange(scope.organizationId);
  const inScope = sql`search_fts.rowid between ${first} and ${last} and s.organization_id = ${scope.organizationId} and s.deleted_at is null${
    scope.spaceIds ? sql` and ss.space_id in (${sql.join(scope.spaceIds)})` : sql``
  }`;
  const titles = await sqliteRanked(db, fields, fts5Scoped(match, 'page_title heading', scope), inScope, limit);
  if (titles.length === limit) return [titles, []];
  return [titles, await sqliteRanked(db, fields, fts5Scoped(match, 'page_title heading body', scope), inScope, limit, BODY_CANDIDATES)];
}
