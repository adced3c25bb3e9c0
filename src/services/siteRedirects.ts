// Site redirects: a path of a published site that sends readers to one of its sections,
// site spaces or pages, as GitBook's site settings make them. Readers meet them where
// no page answers (services/publishedReads.ts); the API resolves a source to its target URL for
// GitBook's renderer. A destination must exist when the redirect is made; one that has
// since gone resolves nowhere (404) rather than to a guess.
import { BadRequest, Conflict, NotFound } from '../errors.ts';
import { pagePath } from '../content/tree.ts';
import { findSite } from '../db/repos/sites.ts';
import { deleteSiteRedirect as deleteRow, findSiteRedirect, findSiteRedirectBySource, insertSiteRedirect, siteRedirectsQuery, updateSiteRedirect as updateRow } from '../db/repos/siteRedirects.ts';
import { readSiteStructure, sitesShowingSpaces } from '../db/repos/siteStructure.ts';
import { findSpace } from '../db/repos/spaces.ts';
import type { Db, SiteStructureRows, SiteRedirectRow, SiteRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { publishedSiteUrl } from '../presenters/site.ts';
import { presentSiteRedirect, type SiteRedirectDestination } from '../presenters/siteRedirect.ts';
import type { Actor, ServiceContext } from './context.ts';
import { changeSite } from './events.ts';
import { authorizeInOrganization } from './organizations.ts';
import { loadRevision } from './revisions.ts';
import { authorizeSiteManagement, authorizeSiteRead, type ReadCredentials } from './siteAccess.ts';

/** A source path decoded segment by segment: what a reader's path is matched on. */
function sourcePathOf(source: string): string {
  try {
    return source.split('/').map(decodeURIComponent).join('/');
  } catch {
    throw new BadRequest(`source: "${source}" holds a %-escape that is not UTF-8`);
  }
}

/** The page tree of the space a site space shows, as published now. */
async function publishedTree(ctx: ServiceContext, spaceId: string) {
  const space = await findSpace(ctx.db, spaceId);
  return space && !space.deleted_at ? (await loadRevision(ctx, space.revision_id)).tree : undefined;
}

/**
 * Where a destination is, as a path under the site's published URL ("" for its root),
 * or undefined when it is no longer part of the site.
 */
async function destinationPath(ctx: ServiceContext, structure: SiteStructureRows, destination: SiteRedirectDestination): Promise<string | undefined> {
  const sectionPath = (sectionId: string | null) => (sectionId ? structure.sections.find((section) => section.id === sectionId)?.path : '');
  switch (destination.kind) {
    case 'site-section': {
      const path = sectionPath(destination.siteSectionId);
      return path ? `/${path}` : undefined;
    }
    case 'site-space':
    case 'site-page': {
      const siteSpace = structure.siteSpaces.find((candidate) => candidate.id === destination.siteSpaceId);
      const section = siteSpace && sectionPath(siteSpace.section_id);
      if (!siteSpace || section === undefined) return undefined;
      const base = `${section ? `/${section}` : ''}/${siteSpace.path}`;
      if (destination.kind === 'site-space') return base;
      const tree = await publishedTree(ctx, siteSpace.space_id);
      const page = tree?.get(destination.pageId);
      return page && page.meta.type === 'document' ? `${base}/${pagePath(tree!, page.id)}` : undefined;
    }
  }
}

/**
 * The destination, when it is on the site now. Read before the write's transaction (the
 * page tree is read through the revision store, which is not the transaction's): a
 * destination that goes in between resolves nowhere, as one that goes later does.
 */
async function checkedDestination(ctx: ServiceContext, siteId: string, destination: SiteRedirectDestination): Promise<SiteRedirectDestination> {
  const structure = await readSiteStructure(ctx.db, siteId);
  if ((await destinationPath(ctx, structure, destination)) !== undefined) return destination;
  switch (destination.kind) {
    case 'site-section':
      throw new BadRequest(`destination.siteSectionId: no section "${destination.siteSectionId}" in this site`);
    case 'site-space':
      throw new BadRequest(`destination.siteSpaceId: no site space "${destination.siteSpaceId}" in this site`);
    case 'site-page':
      throw new BadRequest(
        structure.siteSpaces.some((siteSpace) => siteSpace.id === destination.siteSpaceId)
          ? `destination.pageId: no page "${destination.pageId}" in the published content of site space "${destination.siteSpaceId}"`
          : `destination.siteSpaceId: no site space "${destination.siteSpaceId}" in this site`,
      );
  }
}

async function sourceFree(db: Db, siteId: string, sourcePath: string, exceptId?: string): Promise<void> {
  const taken = await findSiteRedirectBySource(db, siteId, sourcePath);
  if (taken && taken.id !== exceptId) throw new Conflict(`source: "${taken.source}" already redirects on this site (redirect "${taken.id}")`);
}

export async function createSiteRedirect(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, input: { source: string; destination: SiteRedirectDestination }) {
  await authorizeSiteManagement(ctx, ctx.db, actor, organizationId, siteId);
  const destination = JSON.stringify(await checkedDestination(ctx, siteId, input.destination));
  return changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const sourcePath = sourcePathOf(input.source);
    await sourceFree(trx, siteId, sourcePath);
    const row: SiteRedirectRow = {
      id: newId(),
      site_id: siteId,
      source: input.source,
      source_path: sourcePath,
      destination,
      created_at: isoNow(ctx.clock),
    };
    await insertSiteRedirect(trx, row);
    return presentSiteRedirect(row);
  });
}

/** A site's redirects, newest first, for the organization's members. */
export async function listSiteRedirects(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, options: PageRequest & { search?: string }) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  if (!(await findSite(ctx.db, organizationId, siteId))) throw new NotFound(`No site with id "${siteId}" in this organization`);
  return paginate(
    siteRedirectsQuery(ctx.db, siteId, options.search),
    [
      { column: 'r.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'r.id', direction: 'desc', value: (row) => row.id },
    ],
    options,
    presentSiteRedirect,
  );
}

async function requireRedirect(db: Db, siteId: string, redirectId: string): Promise<SiteRedirectRow> {
  const row = await findSiteRedirect(db, siteId, redirectId);
  if (!row) throw new NotFound(`No redirect with id "${redirectId}" in this site`);
  return row;
}

export async function updateSiteRedirect(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  redirectId: string,
  changes: { source?: string; destination?: SiteRedirectDestination },
) {
  await authorizeSiteManagement(ctx, ctx.db, actor, organizationId, siteId);
  const destination = changes.destination && JSON.stringify(await checkedDestination(ctx, siteId, changes.destination));
  return changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const row = await requireRedirect(trx, siteId, redirectId);
    const update: Parameters<typeof updateRow>[2] = {};
    if (changes.source !== undefined) {
      update.source = changes.source;
      update.source_path = sourcePathOf(changes.source);
      await sourceFree(trx, siteId, update.source_path, redirectId);
    }
    if (destination !== undefined) update.destination = destination;
    if (Object.keys(update).length > 0) await updateRow(trx, redirectId, update);
    return presentSiteRedirect({ ...row, ...update });
  });
}

/** Deletes a redirect; answers whether there was one (GitBook's 205, else 204). */
export async function deleteSiteRedirect(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, redirectId: string): Promise<boolean> {
  return changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    return deleteRow(trx, siteId, redirectId);
  });
}

/** Where a reader's path (decoded, from the site's root, "/old/page") is redirected: a path under the site's root. */
export async function redirectedPath(ctx: ServiceContext, site: SiteRow, structure: SiteStructureRows, path: string): Promise<string | undefined> {
  const row = await findSiteRedirectBySource(ctx.db, site.id, path);
  return row && destinationPath(ctx, structure, presentSiteRedirect(row).destination);
}

/** The redirect a source names and the published URL it leads to, for whoever may read the site. */
export async function resolveSiteRedirect(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, source: string, credentials: ReadCredentials) {
  const { site } = await authorizeSiteRead(ctx, actor, organizationId, siteId, credentials);
  const row = await findSiteRedirectBySource(ctx.db, siteId, sourcePathOf(source));
  if (!row) throw new NotFound(`No redirect from "${source}" on this site`);
  const path = await destinationPath(ctx, await readSiteStructure(ctx.db, siteId), presentSiteRedirect(row).destination);
  if (path === undefined) throw new NotFound(`The redirect from "${source}" leads to content no longer on this site`);
  return { redirect: presentSiteRedirect(row), target: `${publishedSiteUrl(ctx.config.publicUrl, site)}${path}` };
}

/**
 * The redirects a space's content declares (Git Sync's .gitbook.yaml: an old path under
 * the space, the page it now is), made on every site that publishes the space, under
 * the site space's path. A declared source replaces the redirect the site had for it.
 */
export async function redirectSpacePaths(ctx: ServiceContext, trx: Db, spaceId: string, redirects: Array<{ path: string; pageId: string }>): Promise<void> {
  if (redirects.length === 0) return;
  for (const siteId of await sitesShowingSpaces(trx, [spaceId])) {
    const structure = await readSiteStructure(trx, siteId);
    for (const siteSpace of structure.siteSpaces.filter((candidate) => candidate.space_id === spaceId)) {
      const section = siteSpace.section_id ? structure.sections.find((candidate) => candidate.id === siteSpace.section_id)?.path : '';
      if (section === undefined) continue;
      for (const redirect of redirects) {
        const sourcePath = [section, siteSpace.path, ...redirect.path.split('/')].filter(Boolean).join('/');
        const row: SiteRedirectRow = {
          id: newId(),
          site_id: siteId,
          source: `/${sourcePath.split('/').map(encodeURIComponent).join('/')}`,
          source_path: `/${sourcePath}`,
          destination: JSON.stringify({ kind: 'site-page', siteSpaceId: siteSpace.id, pageId: redirect.pageId } satisfies SiteRedirectDestination),
          created_at: isoNow(ctx.clock),
        };
        const existing = await findSiteRedirectBySource(trx, siteId, row.source_path);
        if (existing) await updateRow(trx, existing.id, { source: row.source, destination: row.destination });
        else await insertSiteRedirect(trx, row);
      }
    }
  }
}
