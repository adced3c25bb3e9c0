// Three-way merge of page trees, as git merges commits: what changed between the
// base and each side is combined. Pages added, deleted or moved on one side are taken;
// metadata merges field by field; markdown changed on both sides merges line by line
// with diff3 over Myers' diff (jsdiff). Whatever both sides changed differently is a conflict, and
// a merge with any conflict is meant to change nothing.
import { diffArrays } from 'diff';
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
  | 'slug'
  /** The page, as merged, includes a reusable content the merge deletes: its blocks would vanish from it unseen. */
  | 'includes-deleted-reusable-content';

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

/** One side's change to the base: base lines [baseStart, baseEnd) become `lines`. */
interface Hunk {
  baseStart: number;
  baseEnd: number;
  lines: string[];
}

/** The hunks that turn `base` into `side`, by Myers' diff: time grows with the size of the change, not of the text. */
function hunksOf(base: string[], side: string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  let current: Hunk | undefined;
  for (const change of diffArrays(base, side)) {
    if (!change.added && !change.removed) {
      if (current) hunks.push(current);
      current = undefined;
      at += change.count ?? change.value.length;
      continue;
    }
    current ??= { baseStart: at, baseEnd: at, lines: [] };
    if (change.removed) {
      at += change.count ?? change.value.length;
      current.baseEnd = at;
    } else {
      append(current.lines, change.value);
    }
  }
  if (current) hunks.push(current);
  return hunks;
}

/** Appends many lines without spreading them into one call's arguments (a stack limit for large pages). */
function append(target: string[], lines: string[]): void {
  for (const line of lines) target.push(line);
}

/** Base lines [start, end) with one side's hunks (all inside that range) applied. */
function applyWithin(base: string[], start: number, end: number, hunks: Hunk[]): string[] {
  const lines: string[] = [];
  let at = start;
  for (const hunk of hunks) {
    append(lines, base.slice(at, hunk.baseStart));
    append(lines, hunk.lines);
    at = hunk.baseEnd;
  }
  append(lines, base.slice(at, end));
  return lines;
}

/**
 * Merges three versions of a markdown text as diff3 does: changes of one side are
 * taken; changes of both sides that overlap or touch must be the same, or they clash.
 */
export function mergeText(base: string, ours: string, theirs: string): { text: string } | { regions: MergeConflict['regions'] } {
  const baseLines = splitLines(base);
  const sides = [hunksOf(baseLines, splitLines(ours)), hunksOf(baseLines, splitLines(theirs))];
  const all = [...sides[0].map((hunk) => ({ hunk, side: 0 })), ...sides[1].map((hunk) => ({ hunk, side: 1 }))].sort(
    (a, b) => a.hunk.baseStart - b.hunk.baseStart || a.hunk.baseEnd - b.hunk.baseEnd,
  );
  const lines: string[] = [];
  const regions: NonNullable<MergeConflict['regions']> = [];
  /** How far each side's line numbers have moved from the base's, by the hunks before. */
  const shift = [0, 0];
  let at = 0;
  for (let index = 0; index < all.length; ) {
    const group = [all[index++]];
    let end = group[0].hunk.baseEnd;
    while (index < all.length && all[index].hunk.baseStart <= end) {
      end = Math.max(end, all[index].hunk.baseEnd);
      group.push(all[index++]);
    }
    const start = group[0].hunk.baseStart;
    append(lines, baseLines.slice(at, start));
    const versions = [0, 1].map((side) => applyWithin(baseLines, start, end, group.filter((entry) => entry.side === side).map((entry) => entry.hunk)));
    const touched = [0, 1].map((side) => group.some((entry) => entry.side === side));
    if (!touched[0] || !touched[1] || versions[0].join('\n') === versions[1].join('\n')) {
      append(lines, versions[touched[0] ? 0 : 1]);
    } else {
      regions.push({
        ours: { start: start + shift[0] + 1, count: versions[0].length },
        base: { start: start + 1, count: end - start },
        theirs: { start: start + shift[1] + 1, count: versions[1].length },
      });
    }
    for (const side of [0, 1]) shift[side] += versions[side].length - (end - start);
    at = end;
  }
  append(lines, baseLines.slice(at));
  return regions.length > 0 ? { regions } : { text: lines.join('\n') };
}

/** Merges three texts; the caller may run it elsewhere (a worker thread) for large pages. */
export type TextMerger = (base: string, ours: string, theirs: string) => Promise<ReturnType<typeof mergeText>>;

export async function mergeTrees(
  base: FlatTree,
  ours: FlatTree,
  theirs: FlatTree,
  readBlobs: ReadBlobs,
  mergeTexts: TextMerger = async (...texts) => mergeText(...texts),
): Promise<MergeResult> {
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
    // All at once: each waits in the worker pool's queue ahead of background work, where
    // one at a time let background work take the thread between two of them.
    const results = await Promise.all(textMerges.map((textMerge) => mergeTexts(text(textMerge.base), text(textMerge.ours), text(textMerge.theirs))));
    for (const [index, textMerge] of textMerges.entries()) {
      const result = results[index];
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
