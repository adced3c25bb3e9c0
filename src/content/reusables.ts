// The reusable contents of a revision: GitBook's blocks kept once and shown wherever a
// page includes them (`{% include %}`). One list object in the content store, like
// the files; each entry names its markdown's blob, stored as a page's is.
import { mergeText, type LineRange, type TextMerger } from './merge.ts';
import { getAll, hashOf, type Hash, type ObjectStore } from './objects.ts';
import { canonicalJson } from './tree.ts';

export interface ReusableEntry {
  id: string;
  title: string;
  /** Hash of its markdown. */
  blob: Hash;
  /** Its file's path in .gitbook/includes (`Release Notes.md`), as a page's file name is its slug: where an export writes it again. */
  file?: string;
  /** Its file's front matter as written, where it says more than the title (or says it otherwise): what an export writes back. */
  frontMatter?: string;
}

export async function readReusables(store: ObjectStore, hash: Hash): Promise<ReusableEntry[]> {
  return JSON.parse((await getAll(store, [hash])).get(hash)!) as ReusableEntry[];
}

/** Kept in id order, so the same contents always make the same list. */
export async function writeReusables(store: ObjectStore, reusables: ReusableEntry[]): Promise<Hash> {
  const text = canonicalJson([...reusables].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
  const hash = hashOf(text);
  await store.put(new Map([[hash, text]]));
  return hash;
}

export interface ReusableConflict {
  reusableContentId: string;
  kind: 'content' | 'title' | 'edited-and-deleted';
  regions?: Array<{ ours: LineRange; theirs: LineRange; base: LineRange }>;
}

/**
 * Three-way, as pages merge: what one side changed since the base is taken; a title both
 * sides set differently, or an edit on one side of what the other deleted, is a
 * conflict; markdown both sides changed merges line by line.
 */
export async function mergeReusables(
  base: ReusableEntry[],
  ours: ReusableEntry[],
  theirs: ReusableEntry[],
  readBlobs: (hashes: Hash[]) => Promise<Map<Hash, string>>,
  merge: TextMerger = async (b, o, t) => mergeText(b, o, t),
): Promise<{ reusables: ReusableEntry[]; blobs: Map<Hash, string>; conflicts: ReusableConflict[] }> {
  const byId = (entries: ReusableEntry[]) => new Map(entries.map((entry) => [entry.id, entry]));
  const [before, mine, other] = [byId(base), byId(ours), byId(theirs)];
  const same = (a: ReusableEntry | undefined, b: ReusableEntry | undefined) => a?.title === b?.title && a?.blob === b?.blob && a?.frontMatter === b?.frontMatter;
  const reusables: ReusableEntry[] = [];
  const blobs = new Map<Hash, string>();
  const conflicts: ReusableConflict[] = [];
  for (const id of new Set([...mine.keys(), ...other.keys(), ...before.keys()])) {
    const [b, o, t] = [before.get(id), mine.get(id), other.get(id)];
    if (same(o, t) || same(t, b)) {
      if (o) reusables.push(o);
    } else if (same(o, b)) {
      if (t) reusables.push(t);
    } else if (!o || !t || !b) {
      // Added on both sides differently cannot happen (ids are new), so one side deleted what the other edited.
      conflicts.push({ reusableContentId: id, kind: 'edited-and-deleted' });
    } else {
      const title = o.title === t.title || t.title === b.title ? o.title : o.title === b.title ? t.title : undefined;
      if (title === undefined) conflicts.push({ reusableContentId: id, kind: 'title' });
      let blob = o.blob;
      if (o.blob !== t.blob && t.blob !== b.blob) {
        if (o.blob === b.blob) blob = t.blob;
        else {
          const texts = await readBlobs([b.blob, o.blob, t.blob]);
          const merged = await merge(texts.get(b.blob)!, texts.get(o.blob)!, texts.get(t.blob)!);
          if ('regions' in merged) {
            conflicts.push({ reusableContentId: id, kind: 'content', regions: merged.regions });
            continue;
          }
          blob = hashOf(merged.text);
          blobs.set(blob, merged.text);
        }
      }
      if (title !== undefined) reusables.push({ id, title, blob });
    }
  }
  return { reusables, blobs, conflicts };
}
