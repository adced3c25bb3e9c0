// The rules that hold a site's structure together, whatever operation changed it:
// one default section per site, one default site space per section (or per site
// without sections), positions in order, paths unique where they are read.
import { generateKeyBetween } from 'fractional-indexing';
import { BadRequest } from '../errors.ts';
import { readSiteStructure, sitesShowingSpaces, updateSection } from '../db/repos/siteStructure.ts';
import { findSiteById, updateSite } from '../db/repos/sites.ts';
import type { Db, SiteStructureRows, SectionGroupRow, SectionRow, SiteRow, SiteSpaceRow } from '../db/schema.ts';
import { treeWithout, withinAny, type FlatTree, type TreeOutline } from '../content/tree.ts';
import { ConditionError, conditionHolds, parseCondition } from '../lib/conditions.ts';
import type { ServiceContext } from './context.ts';
import { recordSitesUpdated, type CommittedEvent } from './events.ts';

/** Re-establishes the defaults after any change to a site's structure. */
export async function settleDefaults(db: Db, siteId: string): Promise<void> {
  const site = (await findSiteById(db, siteId))!;
  const structure = await readSiteStructure(db, siteId);
  const ordered = orderedSections(structure);
  if (ordered.length > 0) {
    const defaultSection = ordered.some((s) => s.id === site.default_section_id) ? site.default_section_id : ordered[0].id;
    if (defaultSection !== site.default_section_id || site.default_site_space_id !== null) {
      await updateSite(db, siteId, { default_section_id: defaultSection, default_site_space_id: null });
    }
    for (const section of structure.sections) {
      const members = structure.siteSpaces.filter((ss) => ss.section_id === section.id);
      const chosen = members.some((ss) => ss.id === section.default_site_space_id)
        ? section.default_site_space_id
        : (members[0]?.id ?? null);
      if (chosen !== section.default_site_space_id) await updateSection(db, section.id, { default_site_space_id: chosen });
    }
    return;
  }
  const roots = structure.siteSpaces.filter((ss) => ss.section_id === null);
  const chosen = roots.some((ss) => ss.id === site.default_site_space_id) ? site.default_site_space_id : (roots[0]?.id ?? null);
  if (chosen !== site.default_site_space_id || site.default_section_id !== null) {
    await updateSite(db, siteId, { default_site_space_id: chosen, default_section_id: null });
  }
}

export type TopLevelItem = { group: SectionGroupRow; section?: never } | { section: SectionRow; group?: never };

/** The site's top level: groups and ungrouped sections, sharing one order. */
export function topLevelItems(structure: SiteStructureRows): TopLevelItem[] {
  return [
    ...structure.groups.map((group) => ({ position: group.position, group })),
    ...structure.sections.filter((s) => s.group_id === null).map((section) => ({ position: section.position, section })),
  ]
    .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
    .map(({ position: _position, ...item }) => item as TopLevelItem);
}

/** Sections in reading order: top-level items by position, grouped sections within their group. */
export function orderedSections(structure: SiteStructureRows): SectionRow[] {
  return topLevelItems(structure).flatMap((item) =>
    item.group ? structure.sections.filter((s) => s.group_id === item.group.id) : [item.section!],
  );
}

/**
 * What a reader with these claims is shown of a site: the sections whose condition
 * holds, in reading order, and the site spaces whose own condition holds and whose
 * section is shown. Members, who read without claims, are shown everything.
 */
export function shownStructure(structure: SiteStructureRows, claims: Record<string, unknown> | undefined): { sections: SectionRow[]; siteSpaces: SiteSpaceRow[] } {
  const visible = (condition: string | null) => claims === undefined || condition === null || conditionHolds(condition, claims);
  const sections = orderedSections(structure).filter((section) => visible(section.condition));
  const shownSections = new Set(sections.map((section) => section.id));
  const siteSpaces = structure.siteSpaces.filter(
    (siteSpace) => visible(siteSpace.condition) && (siteSpace.section_id === null || shownSections.has(siteSpace.section_id)),
  );
  return { sections, siteSpaces };
}

/** Each tree's (or outline's) pages that have a condition, found once: most trees have none. */
const conditionalPages = new WeakMap<FlatTree | TreeOutline, Array<{ id: string; condition: string }>>();

/** The pages whose own condition does not hold for a reader with these claims. */
function pagesClosedTo(tree: FlatTree | TreeOutline, claims: Record<string, unknown>): Set<string> {
  let conditional = conditionalPages.get(tree);
  if (!conditional) {
    conditional = [...tree.values()].flatMap((page) => (page.meta.if === undefined ? [] : [{ id: page.id, condition: String(page.meta.if) }]));
    conditionalPages.set(tree, conditional);
  }
  return new Set(conditional.filter(({ condition }) => !conditionHolds(condition, claims)).map(({ id }) => id));
}

/** Trees as readers with some pages closed to them read them, by the pages left out: a few variants a tree, so that what is kept by tree serves them again. */
const treesReadBy = new WeakMap<FlatTree, Map<string, FlatTree>>();
const VARIANTS_KEPT = 8;

/**
 * What a reader with these claims reads of a space's pages: every page but those whose
 * condition (GitBook's page-level adaptive content, `if` in a page's front matter) does
 * not hold for their claims, and what is under those, as for sections and site spaces
 * (shownStructure). `leftOut` names the pages left out, '' when none: answers made of
 * the tree are kept by it. Members read without claims, and read every page.
 */
export function pagesReadBy(tree: FlatTree, claims: Record<string, unknown> | undefined): { tree: FlatTree; leftOut: string } {
  const closed = claims === undefined ? new Set<string>() : pagesClosedTo(tree, claims);
  if (closed.size === 0) return { tree, leftOut: '' };
  const leftOut = [...closed].sort().join(' ');
  let variants = treesReadBy.get(tree);
  if (!variants) treesReadBy.set(tree, (variants = new Map()));
  let read = variants.get(leftOut);
  if (!read) {
    read = treeWithout(tree, closed);
    if (variants.size >= VARIANTS_KEPT) variants.delete(variants.keys().next().value!);
    variants.set(leftOut, read);
  }
  return { tree: read, leftOut };
}

/** pagesReadBy for one page of an outline (search's): whether neither it nor a page above it is closed to the reader. */
export function pageReadBy(outline: TreeOutline, pageId: string, claims: Record<string, unknown> | undefined): boolean {
  return claims === undefined || !withinAny(outline, pageId, pagesClosedTo(outline, claims));
}

/** The site's default section, or its first one. */
export function defaultSectionOf<T extends { id: string }>(site: SiteRow, sections: T[]): T | undefined {
  return sections.find((candidate) => candidate.id === site.default_section_id) ?? sections[0];
}

/** The site space a path starts with (a section's path, then a variant's), the rest of the path, and what the reader is shown of the site. */
export function siteSpaceAtPath(site: SiteRow, structure: SiteStructureRows, segments: string[], claims: Record<string, unknown>) {
  const shown = shownStructure(structure, claims);
  const sections = shown.sections;
  let section = sections.find((candidate) => candidate.path === segments[0]);
  const rest = section ? segments.slice(1) : segments;
  section ??= defaultSectionOf(site, sections);
  const spaces = shown.siteSpaces.filter((siteSpace) => siteSpace.section_id === (section?.id ?? null));
  const named = spaces.find((siteSpace) => siteSpace.path === rest[0]);
  const defaultId = section ? section.default_site_space_id : site.default_site_space_id;
  const siteSpace: SiteSpaceRow | undefined = named ?? spaces.find((candidate) => candidate.id === defaultId) ?? spaces[0];
  const prefix = [...(section && section.id !== defaultSectionOf(site, sections)?.id ? [section.path] : []), ...(named ? [named.path] : [])];
  return { siteSpace, section, rest: named ? rest.slice(1) : rest, prefix, shown };
}

/** Removes deleted or departed spaces from every site showing them, keeping each site's defaults. */
export async function detachSpacesFromSites(ctx: ServiceContext, trx: Db, organizationId: string, spaceIds: string[]): Promise<CommittedEvent> {
  const siteIds = await sitesShowingSpaces(trx, spaceIds);
  if (siteIds.length === 0) return { held: [], queued: [] };
  const announced = await recordSitesUpdated(ctx, trx, organizationId, siteIds);
  await trx.deleteFrom('site_spaces').where('space_id', 'in', spaceIds).execute();
  for (const siteId of siteIds) await settleDefaults(trx, siteId);
  return announced;
}

export interface Positioned {
  id: string;
  position: string;
}

/**
 * A position key among `siblings` (in order, the moving item excluded): before or
 * after the named sibling, or at the end. A sibling not in the list is a 400.
 */
export function positionAmong(
  siblings: Positioned[],
  position: { before?: string; after?: string } | undefined,
  kind: string,
): string {
  const others = [...siblings].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  const indexOf = (id: string, field: string) => {
    const index = others.findIndex((item) => item.id === id);
    if (index < 0) throw new BadRequest(`position.${field}: no ${kind} "${id}" among the siblings in this site`);
    return index;
  };
  if (position?.before !== undefined) {
    const index = indexOf(position.before, 'before');
    return generateKeyBetween(others[index - 1]?.position ?? null, others[index].position);
  }
  if (position?.after !== undefined) {
    const index = indexOf(position.after, 'after');
    return generateKeyBetween(others[index].position, others[index + 1]?.position ?? null);
  }
  return generateKeyBetween(others[others.length - 1]?.position ?? null, null);
}

/**
 * A URL path segment from a title: lowercase letters, digits and hyphens, as GitBook
 * makes them (`&` is "and", an apostrophe goes: "Guides & FAQ" is `guides-and-faq`,
 * "GitBook’s editor" `gitbooks-editor`), so that groups and pages keep GitBook's paths.
 */
export function slugify(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['\u2018\u2019\u02bc]/g, '')
    .replace(/&/g, ' and ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90);
  return slug || fallback;
}

/** `wanted`, or `wanted-2`, `wanted-3`… whichever is not taken. */
export function uniquePath(wanted: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(wanted)) return wanted;
  for (let suffix = 2; ; suffix++) if (!used.has(`${wanted}-${suffix}`)) return `${wanted}-${suffix}`;
}

/** Checks a condition before it is saved; unset (undefined) keeps it, null removes it. */
export function checkedCondition(field: string, condition: string | null | undefined): string | null | undefined {
  if (condition === undefined || condition === null) return condition;
  try {
    parseCondition(condition);
  } catch (error) {
    throw new BadRequest(`${field}: the expression is invalid (${(error as ConditionError).message})`);
  }
  return condition;
}

export type { SiteRow };
