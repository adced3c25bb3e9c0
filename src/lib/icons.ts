// Icons, as GitBook names them: a page's `icon` and the `icon` inline hold a Font Awesome
// name ("rocket", "book-open"). Quire draws them from Font Awesome Free's SVGs
// (@fortawesome/fontawesome-free: its solid, regular and brands styles; icons CC BY 4.0,
// each file naming its licence), inline in the reader's pages and served to the app. A
// name Free has not (GitBook's Pro icons) is kept as it is and drawn as nothing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ROOT = dirname(createRequire(import.meta.url).resolve('@fortawesome/fontawesome-free/package.json'));
/** Where a name is looked for, in order: GitBook's default style is the regular weight where Free has it. */
const STYLES = ['regular', 'solid', 'brands'] as const;
/** Font Awesome's names: lower-case words joined by hyphens (and digits: "0", "car-on"). */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface IconShape {
  viewBox: string;
  /** Each path's `d`, drawn in the text's colour. */
  paths: string[];
}

const files = new Map<string, string | undefined>();

/** The icon's SVG file as Font Awesome ships it, or undefined for a name Free has not. */
export function iconSvg(name: string): string | undefined {
  if (!NAME.test(name) || name.length > 64) return undefined;
  if (!files.has(name)) {
    let found: string | undefined;
    for (const style of STYLES) {
      try {
        found = readFileSync(join(ROOT, 'svgs', style, `${name}.svg`), 'utf8');
        break;
      } catch {
        // Not in this style: the next.
      }
    }
    files.set(name, found);
  }
  return files.get(name);
}

/** The icon's box and paths, for drawing it inline as escaped markup (the reader's hast), or undefined. */
export function iconShape(name: string): IconShape | undefined {
  const svg = iconSvg(name);
  const viewBox = svg && /viewBox="([\d .-]+)"/.exec(svg)?.[1];
  if (!svg || !viewBox) return undefined;
  return { viewBox, paths: [...svg.matchAll(/<path[^>]* d="([^"]+)"/g)].map((match) => match[1]!) };
}

export interface IconEntry {
  /** The name GitBook keeps. */
  name: string;
  /** Font Awesome's words for it, then its search terms: what a picker matches. */
  label: string;
  terms: string[];
}

let index: string | undefined;

/** Every icon Free draws, with the words that find it, as JSON text (made once, in a fifth of a second: Font Awesome's metadata is 5 MB of JSON). */
export function iconIndexJson(): string {
  if (index === undefined) {
    const metadata = JSON.parse(readFileSync(join(ROOT, 'metadata', 'icon-families.json'), 'utf8')) as Record<
      string,
      { label?: string; search?: { terms?: unknown[] }; familyStylesByLicense?: { free?: Array<{ style: string }> } }
    >;
    const entries: IconEntry[] = [];
    for (const [name, icon] of Object.entries(metadata)) {
      const free = icon.familyStylesByLicense?.free ?? [];
      if (!NAME.test(name) || !free.some(({ style }) => (STYLES as readonly string[]).includes(style))) continue;
      entries.push({ name, label: icon.label ?? name, terms: (icon.search?.terms ?? []).map(String) });
    }
    index = JSON.stringify(entries);
  }
  return index;
}
