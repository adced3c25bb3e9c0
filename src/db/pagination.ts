// The one pagination helper: keyset cursors over an ordered query, never OFFSET, so a
// deep page costs what the first does. The cursor is opaque to callers: the sort key
// values of the last row returned, base64url-encoded.
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { BadRequest } from '../errors.ts';
import { toCount } from './dialect.ts';
import type { ListPage, PageRequest } from '../lib/pageRequest.ts';

export const DEFAULT_LIMIT = 50;

export type { ListPage, PageRequest };

type KeyValue = string | number;

export interface SortKey<Row> {
  /** A column reference as written in the query, such as "m.joined_at", or an expression. */
  column: string | RawBuilder<unknown>;
  direction: 'asc' | 'desc';
  value: (row: Row) => KeyValue;
}

function sortExpression(key: Pick<SortKey<never>, 'column'>) {
  return typeof key.column === 'string' ? sql.ref(key.column) : key.column;
}

function encodeCursor(values: KeyValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

function decodeCursor(page: string, length: number): KeyValue[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    values = undefined;
  }
  if (
    !Array.isArray(values) ||
    values.length !== length ||
    !values.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
  ) {
    throw new BadRequest('page is not a valid cursor: pass the value of next.page from the previous answer');
  }
  return values as KeyValue[];
}

/**
 * Runs one page of `query` (filters applied, no order or limit) sorted by `keys`, whose
 * last key must be unique, and counts the whole list. `present` turns each row into
 * the API object.
 */
export async function paginate<Row, Item>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query: SelectQueryBuilder<any, any, Row>,
  keys: SortKey<Row>[],
  request: PageRequest,
  present: (row: Row) => Item,
): Promise<ListPage<Item>> {
  const limit = request.limit ?? DEFAULT_LIMIT;
  const countQuery = query.clearSelect().select(sql<number | string>`count(*)`.as('count'));

  let pageQuery = query;
  if (request.page) {
    const after = decodeCursor(request.page, keys.length);
    const sameDirection = keys.every((key) => key.direction === keys[0].direction);
    pageQuery = sameDirection
      ? // A row-value comparison lets both engines seek the index straight to the page.
        pageQuery.where(
          sql<boolean>`(${sql.join(keys.map(sortExpression))}) ${sql.raw(keys[0].direction === 'asc' ? '>' : '<')} (${sql.join(after)})`,
        )
      : pageQuery.where(({ or, and }) =>
          or(
            keys.map((key, index) =>
              and([
                ...keys.slice(0, index).map((previous, i) => sql<boolean>`${sortExpression(previous)} = ${after[i]}`),
                key.direction === 'asc'
                  ? sql<boolean>`${sortExpression(key)} > ${after[index]}`
                  : sql<boolean>`${sortExpression(key)} < ${after[index]}`,
              ]),
            ),
          ),
        );
  }
  for (const key of keys) pageQuery = pageQuery.orderBy(sortExpression(key), key.direction);
  // The count rides on the page's rows, a subquery both engines evaluate once: one
  // round trip (and one PostgreSQL connection) for a list instead of two. A page
  // without rows asks for it on its own.
  const counted = limit === 0 ? [] : await pageQuery.select(sql<number | string>`(${countQuery})`.as(LIST_COUNT)).limit(limit + 1).execute();
  const rows = counted.map(({ [LIST_COUNT]: _, ...row }) => row as Row);
  const count = counted.length > 0 ? counted[0][LIST_COUNT] : (await countQuery.executeTakeFirst())?.count;
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(present),
    count: toCount(count),
    ...(hasMore && last ? { next: { page: encodeCursor(keys.map((key) => key.value(last))) } } : {}),
  };
}

/** The column the whole list's count comes back in, beside each row of the page. */
const LIST_COUNT = 'quire_list_count';

/**
 * The same pages over a list already in memory and in order (a site's few sections,
 * say): the cursor is the position after the last item returned.
 */
export function paginateList<Item>(items: Item[], request: PageRequest): ListPage<Item> {
  const limit = request.limit ?? DEFAULT_LIMIT;
  const [start] = request.page ? decodeCursor(request.page, 1) : [0];
  if (typeof start !== 'number' || !Number.isInteger(start) || start < 0) {
    throw new BadRequest('page is not a valid cursor: pass the value of next.page from the previous answer');
  }
  const end = start + limit;
  return {
    items: items.slice(start, end),
    count: items.length,
    ...(limit > 0 && end < items.length ? { next: { page: encodeCursor([end]) } } : {}),
  };
}
