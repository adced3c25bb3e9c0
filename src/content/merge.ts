// Three-way merge of page trees, as git merges commits: what changed between the
// base and each side is combined. Pages added, deleted or moved on one side are taken;
// metadata merges field by field; markdown changed on both sides merges line by line
// with diff3 (node-diff3). Whatever both sides changed differently is a conflict, and
// a merge with any conflict is meant to change nothing.
import { diff3Merge } from 'node-diff3';
import { hashOf, type Hash } from './objects.ts';
import { canonicalJson, childrenByParent, type FlatPage, type FlatTree, type PageMeta } from './tree.ts';

export type ConflictKind =
  | 'content'
  | 'metadata'
  | 'edited-and-deleted'
  | 'moved-to-two-places'
  | 'added-twice'
  | 'parent-deleted'
  | 'move-cycle'
  | 'slug';

export interface LineRange {
  /** First line (1-based) and number of lines. */
  start: number;
  count: number;
}

export interface MergeConflict {
  pageId: string;
  kind: ConflictKind;
  /** The metadata field both sides set differently. */
  field?: string;
  /** For content conflicts: the clashing lines in each version. */
  regions?: Array<{ ours: LineRange; theirs: LineRange; base: LineRange }>;
}

export interface MergeResult {
  tree: FlatTree;
  conflicts: MergeConflict[];
  /** Merged markdown written by the merge, by hash, for the caller to store. */
  blobs: Map<Hash, string>;
}

export type ReadBlobs = (hashes: Hash[]) => Promise<Map<Hash, string>>;

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** A page's last-change time is bookkeeping, not content: the later of the two sides wins. */
const LATEST_WINS = 'updatedAt';

/** The value after both changes, or a conflict when each side changed it its own way. */
function pick<T>(base: T, ours: T, theirs: T): { value: T; conflict: boolean } {
  if (same(ours, theirs) || same(theirs, base)) return { value: ours, conflict: false };
  if (same(ours, base)) return { value: theirs, conflict: false };
  return { value: ours, conflict: true };
}

function editedSince(base: FlatPage, page: FlatPage): boolean {
  return base.parentId !== page.parentId || base.blob !== page.blob || !same(base.meta, page.meta);
}

function splitLines(text: string): string[] {
  return text.split('\n');
}

/** Merges three versions of a markdown text; null when the lines clash. */
function mergeText(base: string, ours: string, theirs: string): { text: string } | { regions: MergeConflict['regions'] } {
  const blocks = diff3Merge(splitLines(ours), splitLines(base), splitLines(theirs));
  const lines: string[] = [];
  const regions: NonNullable<MergeConflict['regions']> = [];
  for (const block of blocks) {
    if (block.ok) lines.push(...block.ok);
    else if (block.conflict) {
      const { a, aIndex, o, oIndex, b, bIndex } = block.conflict;
      regions.push({
        ours: { start: aIndex + 1, count: a.length },
        base: { start: oIndex + 1, count: o.length },
        theirs: { start: bIndex + 1, count: b.length },
      });
    }
  }
  return regions.length > 0 ? { regions } : { text: lines.join('\n') };
}

export async function mergeTrees(base: FlatTree, ours: FlatTree, theirs: FlatTree, readBlobs: ReadBlobs): Promise<MergeResult> {
  const conflicts: MergeConflict[] = [];
  const blobs = new Map<Hash, string>();
  /** Merged pages, with the index to sort by among their new siblings and which side placed them. */
  const merged = new Map<string, { page: FlatPage; order: number; fromTheirs: boolean }>();
  const textMerges: Array<{ pageId: string; base: Hash | null; ours: Hash | null; theirs: Hash | null }> = [];

  for (const id of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const b = base.get(id);
    const o = ours.get(id);
    const t = theirs.get(id);
    if (!b) {
      if (o && t && !same({ ...o, index: 0 }, { ...t, index: 0 })) conflicts.push({ pageId: id, kind: 'added-twice' });
      const added = o ?? t!;
      merged.set(id, { page: added, order: added.index, fromTheirs: !o });
      continue;
    }
    if (!o || !t) {
      const survivor = o ?? t;
      if (survivor && editedSince(b, survivor)) conflicts.push({ pageId: id, kind: 'edited-and-deleted' });
      continue;
    }
    const parent = pick(b.parentId, o.parentId, t.parentId);
    if (parent.conflict) conflicts.push({ pageId: id, kind: 'moved-to-two-places' });
    const meta: Record<string, unknown> = {};
    for (const field of new Set([...Object.keys(b.meta), ...Object.keys(o.meta), ...Object.keys(t.meta)])) {
      if (field === LATEST_WINS) {
        meta[field] = [o.meta[field], t.meta[field]].filter((v) => typeof v === 'string').sort().at(-1) ?? b.meta[field];
        continue;
      }
      const value = pick(b.meta[field], o.meta[field], t.meta[field]);
      if (value.conflict) conflicts.push({ pageId: id, kind: 'metadata', field });
      if (value.value !== undefined) meta[field] = value.value;
    }
    const blob = pick(b.blob, o.blob, t.blob);
    if (blob.conflict) textMerges.push({ pageId: id, base: b.blob, ours: o.blob, theirs: t.blob });
    const movedByTheirs = o.parentId === b.parentId && o.index === b.index && (t.parentId !== b.parentId || t.index !== b.index);
    merged.set(id, {
      page: { id, parentId: parent.value, index: 0, meta: meta as PageMeta, blob: blob.value },
      order: movedByTheirs ? t.index : o.index,
      fromTheirs: movedByTheirs,
    });
  }

  if (textMerges.length > 0) {
    const hashes = textMerges.flatMap((m) => [m.base, m.ours, m.theirs]).filter((hash): hash is Hash => hash !== null);
    const texts = await readBlobs([...new Set(hashes)]);
    const text = (hash: Hash | null) => (hash === null ? '' : (texts.get(hash) ?? ''));
    for (const textMerge of textMerges) {
      const result = mergeText(text(textMerge.base), text(textMerge.ours), text(textMerge.theirs));
      if ('regions' in result) {
        conflicts.push({ pageId: textMerge.pageId, kind: 'content', regions: result.regions });
        continue;
      }
      const hash = hashOf(result.text);
      blobs.set(hash, result.text);
      const entry = merged.get(textMerge.pageId)!;
      entry.page = { ...entry.page, blob: hash };
    }
  }

  for (const { page } of merged.values()) {
    if (page.parentId !== null && !merged.has(page.parentId)) conflicts.push({ pageId: page.id, kind: 'parent-deleted' });
  }
  for (const { page } of merged.values()) {
    const seen = new Set<string>();
    let current: string | null = page.id;
    while (current !== null && merged.has(current) && !seen.has(current)) {
      seen.add(current);
      current = merged.get(current)!.page.parentId;
    }
    if (current !== null && seen.has(current)) conflicts.push({ pageId: page.id, kind: 'move-cycle' });
  }

  const tree: FlatTree = new Map();
  const byParent = new Map<string | null, Array<{ page: FlatPage; order: number; fromTheirs: boolean }>>();
  for (const entry of merged.values()) byParent.set(entry.page.parentId, [...(byParent.get(entry.page.parentId) ?? []), entry]);
  for (const siblings of byParent.values()) {
    siblings.sort((a, b) => a.order - b.order || Number(a.fromTheirs) - Number(b.fromTheirs) || (a.page.id < b.page.id ? -1 : 1));
    const slugs = new Set<string>();
    siblings.forEach(({ page }, index) => {
      if (slugs.has(page.meta.slug)) conflicts.push({ pageId: page.id, kind: 'slug' });
      slugs.add(page.meta.slug);
      tree.set(page.id, { ...page, index });
    });
  }
  return { tree, conflicts, blobs };
}

/** Whether two trees hold the same pages in the same places. */
export function sameTree(a: FlatTree, b: FlatTree): boolean {
  if (a.size !== b.size) return false;
  const childrenA = childrenByParent(a);
  const childrenB = childrenByParent(b);
  for (const [id, page] of a) {
    const other = b.get(id);
    if (!other || !same(page, other)) return false;
  }
  return [...childrenA.keys()].every((parent) => same(childrenA.get(parent)?.map((p) => p.id), childrenB.get(parent)?.map((p) => p.id)));
}
