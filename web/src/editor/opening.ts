// Where the editor's page (or reusable content) comes from. Its document is read once the
// saves of it still under way have answered (an editor of it just closed: reading before
// would give it what the change request held before them, and the next save would write
// that back over them). The change request's route reads it ahead, as soon as it knows the page,
// beside the editor's code loading: on a page of 5,000 blocks the read began 0.7 s
// after the address was opened instead of 1.5 s (bench/editor-browser.ts).
import type { JSONDocument } from '../../../src/content/gitbook/model.ts';
import { api, segment } from '../api/client.ts';
import type { PageWithDocument } from '../features/pages/api/content.ts';
import { savesUnderWay, type WritingTarget } from './saving.ts';

/** What the editor opens: a title, and GitBook's document as stored. */
export interface Writable {
  title: string;
  document: JSONDocument;
}

/** A read ahead older than this is not used: the page may have been written since by another tab. */
const FRESH_MS = 10_000;

const ahead = new Map<string, { reading: Promise<Writable>; at: number }>();

/** A change request's content, where the editor reads and saves. */
export const changeRequestContentUrl = (spaceId: string, changeRequestId: string) => `/v1/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/content`;

const keyOf = (contentUrl: string, target: WritingTarget) => `${contentUrl} ${target.kind} ${target.id}`;

function read(contentUrl: string, target: WritingTarget): Promise<Writable> {
  // As stored (not dereferenced): the editor writes back what it was given.
  return savesUnderWay(contentUrl, target.id).then(async () => {
    if (target.kind === 'page') return api.get<PageWithDocument>(`${contentUrl}/page/${segment(target.id)}?format=document`);
    const at = `${contentUrl}/reusable-contents/${segment(target.id)}`;
    const [entry, document] = await Promise.all([api.get<{ title: string }>(at), api.get<JSONDocument>(`${at}/document`)]);
    return { title: entry.title, document };
  });
}

/** Starts reading a page for the editor before it is shown; the editor's first reading takes it. */
export function readAhead(contentUrl: string, target: WritingTarget): void {
  const reading = read(contentUrl, target);
  // A failed read ahead is the editor's own reading's to show: it reads again.
  reading.catch(() => ahead.delete(keyOf(contentUrl, target)));
  ahead.set(keyOf(contentUrl, target), { reading, at: Date.now() });
}

/** What the editor opens: read ahead moments ago, or read now. Each opening reads anew. */
export function readForEditing(contentUrl: string, target: WritingTarget): Promise<Writable> {
  const key = keyOf(contentUrl, target);
  const readBefore = ahead.get(key);
  ahead.delete(key);
  return readBefore && Date.now() - readBefore.at < FRESH_MS ? readBefore.reading : read(contentUrl, target);
}
