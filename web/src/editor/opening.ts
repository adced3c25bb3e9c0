// Where the editor's page comes from. Its document is read once the saves of that page
// still under way have answered (an editor of it just closed: reading before would give
// it what the change request held before them, and the next save would write that back
// over them). The change request's route reads it ahead, as soon as it knows the page,
// beside the editor's code loading: on a page of 5,000 blocks the read began 0.7 s
// after the address was opened instead of 1.5 s (bench/editor-browser.ts).
import { api, segment } from '../api/client.ts';
import type { PageWithDocument } from '../features/pages/api/content.ts';
import { savesUnderWay } from './saving.ts';

/** A read ahead older than this is not used: the page may have been written since by another tab. */
const FRESH_MS = 10_000;

const ahead = new Map<string, { reading: Promise<PageWithDocument>; at: number }>();

/** A change request's content, where the editor reads and saves. */
export const changeRequestContentUrl = (spaceId: string, changeRequestId: string) => `/v1/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/content`;

function read(contentUrl: string, pageId: string): Promise<PageWithDocument> {
  // As stored (not dereferenced): the editor writes back what it was given.
  return savesUnderWay(contentUrl, pageId).then(() => api.get<PageWithDocument>(`${contentUrl}/page/${segment(pageId)}?format=document`));
}

/** Starts reading a page for the editor before it is shown; the editor's first reading takes it. */
export function readAhead(contentUrl: string, pageId: string): void {
  const reading = read(contentUrl, pageId);
  // A failed read ahead is the editor's own reading's to show: it reads again.
  reading.catch(() => ahead.delete(`${contentUrl} ${pageId}`));
  ahead.set(`${contentUrl} ${pageId}`, { reading, at: Date.now() });
}

/** The page for the editor: read ahead moments ago, or read now. Each opening reads anew. */
export function readForEditing(contentUrl: string, pageId: string): Promise<PageWithDocument> {
  const key = `${contentUrl} ${pageId}`;
  const readBefore = ahead.get(key);
  ahead.delete(key);
  return readBefore && Date.now() - readBefore.at < FRESH_MS ? readBefore.reading : read(contentUrl, pageId);
}
