// Finding Font Awesome Free's icons by the words a writer types (the icon picker's search).
import type { IconEntry } from '../../../../../src/lib/icons.ts';

export type { IconEntry };

/** The icons a query finds: names starting with it first, then names and labels holding it, then search terms. */
export function findIcons(icons: IconEntry[], query: string): IconEntry[] {
  const words = query.trim().toLowerCase();
  if (!words) return icons;
  const rank = (icon: IconEntry) =>
    icon.name.startsWith(words) ? 0
    : icon.name.includes(words) || icon.label.toLowerCase().includes(words) ? 1
    : icon.terms.some((term) => term.toLowerCase().includes(words)) ? 2
    : 3;
  return icons
    .map((icon) => ({ icon, rank: rank(icon) }))
    .filter(({ rank: found }) => found < 3)
    .sort((a, b) => a.rank - b.rank)
    .map(({ icon }) => icon);
}

