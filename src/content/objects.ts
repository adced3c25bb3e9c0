// Content-addressed objects: every piece of content is stored once, under the SHA-256
// of its text, so identical pages, lists and files are never stored twice and an
// object never changes once written.
import { hash } from 'node:crypto';

export type Hash = string;

/** Where objects live: the database for Quire itself; in memory for tests, and to gather a revision's new objects before they are written. */
export interface ObjectStore {
  /** The objects found among `hashes` (missing ones are simply absent). */
  get(hashes: Hash[]): Promise<Map<Hash, string>>;
  /** Stores objects; storing one that exists already changes nothing. */
  put(objects: Map<Hash, string>): Promise<void>;
}

/** One-shot hashing: twice as fast as a Hash object for the small texts of page nodes and lists, which an edit hashes by the thousand. */
export function hashOf(text: string): Hash {
  return hash('sha256', text, 'hex');
}

export class ContentError extends Error {}

/** Reads objects that must exist; a missing one means the store is damaged. */
export async function getAll(store: ObjectStore, hashes: Hash[]): Promise<Map<Hash, string>> {
  const found = await store.get(hashes);
  for (const hash of hashes) {
    if (!found.has(hash)) throw new ContentError(`content object ${hash} is missing from the store`);
  }
  return found;
}

export class MemoryObjectStore implements ObjectStore {
  readonly objects = new Map<Hash, string>();

  async get(hashes: Hash[]): Promise<Map<Hash, string>> {
    const found = new Map<Hash, string>();
    for (const hash of hashes) {
      const text = this.objects.get(hash);
      if (text !== undefined) found.set(hash, text);
    }
    return found;
  }

  async put(objects: Map<Hash, string>): Promise<void> {
    for (const [hash, text] of objects) if (!this.objects.has(hash)) this.objects.set(hash, text);
  }

  /** Characters stored in all: what an edit adds is the difference. */
  get size(): number {
    let total = 0;
    for (const text of this.objects.values()) total += text.length;
    return total;
  }
}
