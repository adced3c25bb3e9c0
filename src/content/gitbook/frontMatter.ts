// A page's fields and GitBook's front matter, both ways: what an import reads into a
// page's metadata, and what an export writes back (the front matter as the page came
// with it, with Quire's fields laid over it).
import { parse as parseYaml } from 'yaml';
import type { PageMeta } from '../tree.ts';

const LAYOUT_PARTS = ['title', 'description', 'tableOfContents', 'outline', 'pagination'] as const;

/** Page metadata from GitBook's front matter; fields of the wrong kind are reported and left out. */
export function metaFromFront(front: Record<string, unknown>, frontText: string | undefined, where: string, coverFile: (path: string) => string | undefined, warnings: string[]): Partial<PageMeta> {
  const meta: Partial<PageMeta> = {};
  for (const field of ['description', 'icon', 'emoji', 'if'] as const) {
    if (front[field] === undefined) continue;
    if (typeof front[field] === 'string') meta[field] = front[field];
    else warnings.push(`${where}: front matter "${field}" must be text; it is left out`);
  }
  for (const field of ['hidden', 'noIndex', 'noRobotsIndex'] as const) {
    if (front[field] === undefined) continue;
    if (typeof front[field] === 'boolean') meta[field] = front[field];
    else warnings.push(`${where}: front matter "${field}" must be true or false; it is left out`);
  }
  // The slugs of the tags of the space's library (.gitbook/tags.yaml) the page has; the front matter's text keeps them for an export.
  if (front.tags !== undefined) {
    if (Array.isArray(front.tags) && front.tags.every((tag) => typeof tag === 'string')) meta.tags = front.tags;
    else warnings.push(`${where}: front matter "tags" must be a list of tags' names; the page shows none`);
  }
  if (typeof front.cover === 'string') {
    const file = coverFile(front.cover);
    if (file) meta.cover = { ref: { kind: 'file', file }, ...(typeof front.coverY === 'number' ? { yPos: front.coverY } : {}) };
    else {
      // Absent from the repository (or too large to import): the page shows none, and its front matter keeps it for the way back.
      meta.coverNotImported = true;
      warnings.push(`${where}: the cover ${front.cover} is not a file of the repository; the page has none, and an export keeps it in the front matter`);
    }
  }
  if (front.layout && typeof front.layout === 'object') {
    const given = front.layout as Record<string, { visible?: unknown; size?: unknown } | undefined>;
    const layout: Record<string, unknown> = {};
    for (const part of LAYOUT_PARTS) if (typeof given[part]?.visible === 'boolean') layout[part] = given[part]!.visible;
    if (typeof given.cover?.visible === 'boolean') layout.cover = given.cover.visible;
    if (given.cover?.size === 'hero' || given.cover?.size === 'full') layout.coverSize = given.cover.size;
    if (Object.keys(layout).length > 0) meta.layout = layout;
  }
  // The front matter as written, for an export to keep its order, its styles and the fields Quire does not use. As text:
  // a page's metadata is stored with its keys sorted (canonicalJson), which lost the order of an object.
  if (Object.keys(front).length > 0 && frontText !== undefined) meta.frontMatter = frontText;
  return meta;
}

const MANAGED_FIELDS = new Set(['description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex', 'cover', 'coverY', 'if']);
type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `managed` (what Quire's metadata says now) laid over `written` (the front matter the
 * page came with): the file's order and its other fields stay; Quire's fields take
 * Quire's values, and go when Quire's metadata no longer has them.
 */
function overlay(written: Fields, managed: Fields, isManaged: (key: string) => boolean): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(written)) {
    if (isFields(value) && isFields(managed[key])) out[key] = overlay(value, managed[key] as Fields, () => true);
    else if (!isManaged(key)) out[key] = value;
    else if (managed[key] !== undefined) out[key] = managed[key];
  }
  for (const [key, value] of Object.entries(managed)) if (!(key in written) && value !== undefined) out[key] = value;
  return out;
}

/** The layout as written, with Quire's parts over it: a part's `visible`, the cover's `visible` and `size`. */
function overlayLayout(written: unknown, managed: unknown): unknown {
  if (!isFields(written)) return managed;
  const parts = isFields(managed) ? managed : {};
  const out: Fields = {};
  for (const [key, value] of Object.entries(written)) {
    const mine = parts[key];
    if (!isFields(value) || !(LAYOUT_PARTS.includes(key as never) || key === 'cover')) out[key] = value;
    else {
      // Quire knows `visible`, and `size` when it is hero or full; anything else of the part stays.
      const known = (field: string) => field === 'visible' || (field === 'size' && (value.size === 'hero' || value.size === 'full'));
      const merged = overlay(value, isFields(mine) ? mine : {}, known);
      if (Object.keys(merged).length > 0) out[key] = merged;
    }
  }
  for (const [key, value] of Object.entries(parts)) if (!(key in written)) out[key] = value;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The front matter a page was imported with: its YAML (stored since 2026-11-27), or the fields, as stored before. */
function writtenFrontMatter(meta: PageMeta): { fields: Fields; text?: string } {
  if (typeof meta.frontMatter === 'string') {
    const fields = parseYaml(meta.frontMatter) as unknown;
    return { fields: isFields(fields) ? fields : {}, text: meta.frontMatter };
  }
  return { fields: isFields(meta.frontMatter) ? meta.frontMatter : {} };
}

/**
 * GitBook's front matter from page metadata (what `metaFromFront` reads): the YAML the
 * page was imported with while Quire's fields still say what it says, so a file comes
 * back as written; its fields with Quire's laid over them otherwise.
 */
export function frontFromMeta(meta: PageMeta, coverPath: (fileId: string) => string | undefined): Record<string, unknown> | string {
  const front: Record<string, unknown> = {};
  for (const field of ['description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex'] as const) if (meta[field] !== undefined && meta[field] !== '') front[field] = meta[field];
  const cover = meta.cover as { ref?: { kind?: string; file?: string }; yPos?: number } | undefined;
  const coverAt = cover?.ref?.kind === 'file' && cover.ref.file ? coverPath(cover.ref.file) : undefined;
  if (coverAt) {
    front.cover = coverAt;
    if (cover?.yPos !== undefined) front.coverY = cover.yPos;
  }
  const parts = meta.layout as Record<string, unknown> | undefined;
  if (parts) {
    const layout: Record<string, unknown> = {};
    if (parts.cover !== undefined || parts.coverSize !== undefined) layout.cover = { visible: parts.cover ?? true, ...(parts.coverSize ? { size: parts.coverSize } : {}) };
    for (const part of LAYOUT_PARTS) if (typeof parts[part] === 'boolean') layout[part] = { visible: parts[part] };
    if (Object.keys(layout).length > 0) front.layout = layout;
  }
  if (typeof meta.if === 'string') front.if = meta.if;
  const { fields: written, text } = writtenFrontMatter(meta);
  const layout = overlayLayout(written.layout, front.layout);
  // A cover the import could not bring in stays as written, until the page is given one in Quire.
  const keptCover = meta.coverNotImported === true && !coverAt;
  const fields = overlay({ ...written, layout: undefined }, { ...front, layout }, (key) => (MANAGED_FIELDS.has(key) && !(keptCover && (key === 'cover' || key === 'coverY'))) || key === 'layout');
  return text !== undefined && JSON.stringify(fields) === JSON.stringify(written) ? text : fields;
}
