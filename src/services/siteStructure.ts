// The rules that hold a site's structure together, whatever operation changed it:
// one default section per site, one default site space per section (or per site
// without sections). Reading a structure (reading order, what a reader is shown) is
// lib/siteStructure.ts; positions, slugs and conditions are in lib/.
import { readSiteStructure, sitesShowingSpaces, updateSection } from '../db/repos/siteStructure.ts';
import { findSiteById, updateSite } from '../db/repos/sites.ts';
import type { Db } from '../db/schema.ts';
import { orderedSections } from '../lib/siteStructure.ts';
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

/** Removes deleted or departed spaces from every site showing them, keeping each site's defaults. */
export async function detachSpacesFromSites(ctx: ServiceContext, trx: Db, organizationId: string, spaceIds: string[]): Promise<CommittedEvent> {
  const siteIds = await sitesShowingSpaces(trx, spaceIds);
  if (siteIds.length === 0) return { held: [], queued: [] };
  const announced = await recordSitesUpdated(ctx, trx, organizationId, siteIds);
  await trx.deleteFrom('site_spaces').where('space_id', 'in', spaceIds).execute();
  for (const siteId of siteIds) await settleDefaults(trx, siteId);
  return announced;
}
