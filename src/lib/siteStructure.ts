// Reading a site's structure: its top level in order, its sections in reading order,
// what a reader with some claims is shown of it, and the site space a path names.
// Pure: it takes the rows its caller read.
import type { SiteStructureRows, SectionGroupRow, SectionRow, SiteRow, SiteSpaceRow } from '../db/schema.ts';
import { conditionHolds } from './conditions.ts';

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
