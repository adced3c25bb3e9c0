// How far apart two short names are, to suggest the one a misspelling meant. Written
// here rather than taken from npm: a dozen lines, for a list of a few dozen names.

/** Levenshtein distance: the fewest insertions, deletions and substitutions that turn a into b. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The candidate nearest to `name`, if it is at most `within` edits away (the first of equals). */
export function closest(name: string, candidates: readonly string[], within: number): string | undefined {
  let best: string | undefined;
  let bestDistance = within + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}
