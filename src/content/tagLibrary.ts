// A revision's tag library: the tags its pages (front matter `tags:`) and update blocks
// name by slug, each with the label, icon or emoji and colour GitBook shows for it
// (GitBook 0.202's RevisionTag). One object in the content store, as the files list is;
// a revision without tags stores none.
import { hashOf, getAll, type Hash, type ObjectStore } from './objects.ts';
import { canonicalJson } from './tree.ts';

export interface TagEntry {
  /** The tag's slug, by which pages name it; never changes. */
  slug: string;
  label: string;
  icon?: string;
  emoji?: string;
  color?: string;
}

export interface TagLibrary {
  /** In the order the library lists them: GitBook's editor shows them so. */
  tags: TagEntry[];
  /** Git Sync's `.gitbook/tags.yaml` as written, where it is not what an export writes of `tags` (quotes, comments, fields Quire does not know): written back while the tags are the ones read from it. */
  written?: string;
}

export const NO_TAGS: TagLibrary = Object.freeze({ tags: Object.freeze([]) as unknown as TagEntry[] });

export async function readTagLibrary(store: ObjectStore, hash: Hash | null): Promise<TagLibrary> {
  if (hash === null) return NO_TAGS;
  return JSON.parse((await getAll(store, [hash])).get(hash)!) as TagLibrary;
}

/** Stores the library; answers its hash, or null for a library without tags, which a revision stores as none. */
export async function writeTagLibrary(store: ObjectStore, library: TagLibrary): Promise<Hash | null> {
  if (library.tags.length === 0) return null;
  const text = canonicalJson(library);
  const hash = hashOf(text);
  await store.put(new Map([[hash, text]]));
  return hash;
}

const FIELDS = ['label', 'icon', 'emoji', 'color'] as const;

export const sameTags = (a: TagEntry[], b: TagEntry[]) => canonicalJson(a) === canonicalJson(b);

/**
 * Three-way, as reusable contents merge, tag by tag and field by field: what one side
 * changed since the base is taken, a tag one side deleted goes unless the other changed
 * it. Tags change only through Git Sync's imports, which take a repository's library
 * whole, so where both sides changed one field differently ours (the content being
 * merged in) is taken rather than holding the merge up. Ours' order, theirs' new tags after.
 */
export function mergeTagLibraries(base: TagLibrary, ours: TagLibrary, theirs: TagLibrary): TagLibrary {
  const bySlug = (library: TagLibrary) => new Map(library.tags.map((tag) => [tag.slug, tag]));
  const [before, mine, other] = [bySlug(base), bySlug(ours), bySlug(theirs)];
  const same = (a: TagEntry | undefined, b: TagEntry | undefined) => (a && b ? sameTags([a], [b]) : a === b);
  const tags: TagEntry[] = [];
  for (const slug of new Set([...mine.keys(), ...other.keys()])) {
    const [b, o, t] = [before.get(slug), mine.get(slug), other.get(slug)];
    if (same(o, t) || same(t, b)) {
      if (o) tags.push(o);
    } else if (same(o, b)) {
      if (t) tags.push(t);
    } else if (!o || !t) {
      // One side deleted it, the other changed it: the change keeps it.
      tags.push((o ?? t)!);
    } else {
      const merged: TagEntry = { slug, label: o.label };
      for (const field of FIELDS) {
        const value = o[field] === b?.[field] ? t[field] : o[field];
        if (value !== undefined) merged[field] = value;
      }
      tags.push(merged);
    }
  }
  const written = [ours, theirs].find((side) => side.written !== undefined && sameTags(side.tags, tags))?.written;
  return { tags, ...(written !== undefined ? { written } : {}) };
}
