// The files of a revision: one list object in the content store, each entry naming
// its bytes' blob (stored as base64 text, once per distinct content).
import { hashOf, type Hash, type ObjectStore } from './objects.ts';
import { canonicalJson } from './tree.ts';

export interface FileEntry {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
  /** Hash of the base64 text of the bytes. */
  blob: Hash;
}

export async function writeFiles(store: ObjectStore, files: FileEntry[]): Promise<Hash> {
  const text = canonicalJson(files);
  const hash = hashOf(text);
  await store.put(new Map([[hash, text]]));
  return hash;
}

/** Files never change once added, so merging two lists keeps every file of either. */
export function mergeFiles(ours: FileEntry[], theirs: FileEntry[]): FileEntry[] {
  const ids = new Set(ours.map((file) => file.id));
  return [...ours, ...theirs.filter((file) => !ids.has(file.id))];
}
