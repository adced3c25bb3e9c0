// What a change request changes, page by page and reusable content by reusable content:
// its content against the revision it started from.
import type { PageEntry, ReusableContentEntry } from '../../pages/api/content.ts';

export interface ChangedPage {
  change: 'added' | 'edited' | 'removed';
  page: PageEntry;
}

function flatten(pages: PageEntry[], into = new Map<string, PageEntry>()) {
  for (const page of pages) {
    into.set(page.id, page);
    if (page.pages) flatten(page.pages, into);
  }
  return into;
}

export function changedPages(before: PageEntry[], after: PageEntry[]): ChangedPage[] {
  const old = flatten(before);
  const now = flatten(after);
  const changes: ChangedPage[] = [];
  for (const [id, page] of now) {
    const was = old.get(id);
    if (!was) changes.push({ change: 'added', page });
    else if (was.documentId !== page.documentId || was.title !== page.title || was.path !== page.path || was.emoji !== page.emoji || was.icon !== page.icon) changes.push({ change: 'edited', page });
  }
  for (const [id, page] of old) if (!now.has(id)) changes.push({ change: 'removed', page });
  return changes;
}

export interface ChangedReusableContent {
  change: 'added' | 'edited' | 'removed';
  reusableContent: ReusableContentEntry;
}

export function changedReusableContents(before: ReusableContentEntry[] = [], after: ReusableContentEntry[] = []): ChangedReusableContent[] {
  const old = new Map(before.map((entry) => [entry.id, entry]));
  const now = new Set(after.map((entry) => entry.id));
  const changes: ChangedReusableContent[] = [];
  for (const reusableContent of after) {
    const was = old.get(reusableContent.id);
    if (!was) changes.push({ change: 'added', reusableContent });
    else if (was.document !== reusableContent.document || was.title !== reusableContent.title) changes.push({ change: 'edited', reusableContent });
  }
  for (const reusableContent of before) if (!now.has(reusableContent.id)) changes.push({ change: 'removed', reusableContent });
  return changes;
}
