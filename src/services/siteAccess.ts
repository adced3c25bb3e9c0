// Who may manage a site and who may read it. Members of the organization read every
// site of it, published or not; anyone else reads a published site as the rule in
// policies/publishedSite.ts allows, and its claims decide which conditional sections
// and site spaces they see.
import { Forbidden, NotFound } from '../errors.ts';
import { findSite } from '../db/repos/sites.ts';
import { readSiteStructure } from '../db/repos/siteStructure.ts';
import { findSpacesByIds } from '../db/repos/spaces.ts';
import type { Db, SiteRow, SiteStructureRows, SpaceWithCounters } from '../db/schema.ts';
import { organizationPermissions } from '../policies/organization.ts';
import { publishedSiteClaims, siteTokenCredentials, type ReadCredentials } from './publishedAccess.ts';
import { spaceStanding, type ContentCaller } from '../policies/content.ts';
import { presentSection, presentSectionGroup, presentSiteSpace } from '../presenters/site.ts';
import type { Actor, ServiceContext } from './context.ts';
import { loadContentCallerOf, spaceFacts } from './contentAccess.ts';
import { accessFromRow, authorizeInOrganization, organizationWithAccess } from './organizations.ts';
import { shownStructure, topLevelItems } from '../lib/siteStructure.ts';

function siteNotFound(siteId: string): NotFound {
  return new NotFound(`No site with id "${siteId}" in this organization`);
}

/** Loads a site the caller may change: members with the "create" role or higher. */
export async function authorizeSiteManagement(
  ctx: ServiceContext,
  db: Db,
  actor: Actor,
  organizationId: string,
  siteId: string,
): Promise<SiteRow> {
  const { access } = await authorizeInOrganization(ctx, db, actor, organizationId, 'view');
  const site = await findSite(db, organizationId, siteId);
  if (!site) throw siteNotFound(siteId);
  if (!organizationPermissions(access).createContent) {
    throw new Forbidden('Managing sites needs the "create" role or higher in the organization');
  }
  return site;
}

export interface SiteReader {
  site: SiteRow;
  /** The visitor's claims when the reader is not a member; undefined for members, who see everything. */
  claims: Record<string, unknown> | undefined;
}

export type { ReadCredentials };

export async function authorizeSiteRead(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  credentials: ReadCredentials,
): Promise<SiteReader> {
  const organization = await organizationWithAccess(ctx, ctx.db, actor, organizationId);
  const site = organization && (await findSite(ctx.db, organizationId, siteId));
  if (!site) throw siteNotFound(siteId);
  if (accessFromRow(organization)?.isMember) return { site, claims: undefined };
  // A site token reads the site it names, as the reader it was minted for.
  if (actor.site && actor.site.site !== site.id) throw siteNotFound(siteId);
  const claims = await publishedSiteClaims(ctx.db, site, actor.site ? siteTokenCredentials(actor.site) : credentials);
  if (!claims) throw siteNotFound(siteId);
  return { site, claims };
}

function spaceIdsOf(structure: SiteStructureRows): string[] {
  return [...new Set(structure.siteSpaces.map((ss) => ss.space_id))];
}

/** The presented structure of a site as one reader sees it. */
export async function presentStructure(ctx: ServiceContext, actor: Actor, reader: SiteReader) {
  const { site, claims } = reader;
  const structure = await readSiteStructure(ctx.db, site.id);
  const [spaces, caller] = await Promise.all([findSpacesByIds(ctx.db, spaceIdsOf(structure)), loadContentCallerOf(ctx, ctx.db, actor, site.organization_id)]);
  return presentRead(ctx, { site, structure, spaces }, caller, claims);
}

/** What presenting a site's structure reads: the site, its sections, groups and site spaces, and the spaces they show. */
export interface WrittenStructure {
  site: SiteRow;
  structure: SiteStructureRows;
  spaces: SpaceWithCounters[];
}

/**
 * What a writer of a site's structure presents, read through its transaction after its
 * change. Presenting reads the caller's content standing through the process's caches
 * (loadContentCallerOf), so the writer presents after its commit (presentWrittenStructure),
 * from these rows and without authorizing again: it managed the site, so it is a member.
 */
export async function readStructureFor(db: Db, organizationId: string, siteId: string): Promise<WrittenStructure> {
  const site = await findSite(db, organizationId, siteId);
  if (!site) throw siteNotFound(siteId);
  const structure = await readSiteStructure(db, site.id);
  return { site, structure, spaces: await findSpacesByIds(db, spaceIdsOf(structure)) };
}

/** The structure a writer's transaction read (readStructureFor), presented to the member who changed it. */
export async function presentWrittenStructure(ctx: ServiceContext, actor: Actor, written: WrittenStructure) {
  return presentRead(ctx, written, await loadContentCallerOf(ctx, ctx.db, actor, written.site.organization_id), undefined);
}

function presentRead(ctx: ServiceContext, { site, structure, spaces }: WrittenStructure, caller: ContentCaller, claims: Record<string, unknown> | undefined) {
  const shown = shownStructure(structure, claims);
  const spaceById = new Map(spaces.map((space) => [space.id, space]));
  const sectionPath = new Map(structure.sections.map((section) => [section.id, section.path]));
  const defaults = new Set([site.default_site_space_id, ...structure.sections.map((s) => s.default_site_space_id)]);
  const siteSpaces = shown.siteSpaces
    .filter((ss) => spaceById.has(ss.space_id))
    .map((row) => {
      const space = spaceById.get(row.space_id)!;
      return presentSiteSpace(ctx.config.publicUrl, site, {
        row,
        space,
        // Whoever reads the site as a visitor reads its spaces' published content.
        standing: spaceStanding(caller, { ...spaceFacts(space), publishedOpenly: claims !== undefined }),
        isDefault: defaults.has(row.id),
        sectionPath: row.section_id && row.section_id !== site.default_section_id ? sectionPath.get(row.section_id) : undefined,
      });
    });
  const sections = shown.sections.map((section) =>
      presentSection(ctx.config.publicUrl, site, section, siteSpaces.filter((ss) => ss.section === section.id)),
    );
  const groups = new Map(
    structure.groups.map((group) => [group.id, presentSectionGroup(group, sections.filter((s) => s.sectionGroup === group.id))]),
  );
  if (structure.sections.length === 0) return { type: 'siteSpaces' as const, structure: siteSpaces, sections, siteSpaces };
  const topLevel: Array<ReturnType<typeof presentSection> | ReturnType<typeof presentSectionGroup>> = [];
  for (const item of topLevelItems(structure)) {
    if (item.group) topLevel.push(groups.get(item.group.id)!);
    else topLevel.push(...sections.filter((section) => section.id === item.section!.id));
  }
  return { type: 'sections' as const, structure: topLevel, sections, siteSpaces, groups: [...groups.values()] };
}
