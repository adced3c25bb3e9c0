// The in-memory caches of content (trees, revisions, documents, answers as sent), each
// bounded by what its entries weigh.
/**
 * Least recently used entries go first once what they weigh (pages, characters) passes
 * `weightKept`; an entry heavier than `entryWeightKept` is not kept at all.
 */
export class WeightBoundedCache<Entry> {
  private readonly entries = new Map<string, Entry>();
  private weight = 0;

  constructor(
    private readonly weightKept: number,
    private readonly weightOf: (entry: Entry) => number,
    private readonly entryWeightKept = Infinity,
  ) {}

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  keep(key: string, entry: Entry): void {
    if (this.entries.has(key) || this.weightOf(entry) > this.entryWeightKept) return;
    this.entries.set(key, entry);
    this.weight += this.weightOf(entry);
    while (this.weight > this.weightKept && this.entries.size > 1) {
      const [oldest, evicted] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.weight -= this.weightOf(evicted);
    }
  }

  /** The most recently used entry that `matches`, without counting it as used. */
  find(matches: (entry: Entry) => boolean): Entry | undefined {
    const entries = [...this.entries.values()];
    for (let at = entries.length - 1; at >= 0; at--) if (matches(entries[at])) return entries[at];
    return undefined;
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  forget(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.weight -= this.weightOf(entry);
  }
}
