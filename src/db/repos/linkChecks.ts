// Results of external link checks, one row per URL, with when a check was last queued.
import type { Db, LinkCheckRow } from '../schema.ts';

export async function linkChecksFor(db: Db, urls: string[]): Promise<Map<string, LinkCheckRow>> {
  const found = new Map<string, LinkCheckRow>();
  for (let start = 0; start < urls.length; start += 500) {
    const rows = await db.selectFrom('link_checks').selectAll().where('url', 'in', urls.slice(start, start + 500)).execute();
    for (const row of rows) found.set(row.url, row);
  }
  return found;
}

export async function markLinksQueued(db: Db, urls: string[], queuedAt: string): Promise<void> {
  for (const url of urls) {
    await db
      .insertInto('link_checks')
      .values({ url, ok: null, detail: null, checked_at: null, queued_at: queuedAt })
      .onConflict((conflict) => conflict.column('url').doUpdateSet({ queued_at: queuedAt }))
      .execute();
  }
}

export async function recordLinkCheck(db: Db, url: string, ok: boolean, detail: string, checkedAt: string): Promise<void> {
  await db
    .insertInto('link_checks')
    .values({ url, ok: ok ? 1 : 0, detail, checked_at: checkedAt, queued_at: null })
    .onConflict((conflict) => conflict.column('url').doUpdateSet({ ok: ok ? 1 : 0, detail, checked_at: checkedAt, queued_at: null }))
    .execute();
}
