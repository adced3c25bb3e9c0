// Site spaces: the spaces a site shows, each at a path, in its section or at the root.
import { BadRequest, Conflict, NotFound } from '../errors.ts';
import { deleteSiteSpace, readSiteStructure, updateSiteSpace } from '../db/repos/siteStructure.ts';
import { paginateList, type PageRequest } from '../db/pagination.ts';
import type { Actor, ServiceContext } from './context.ts';
import { changeSite } from './events.ts';
import { authorizeSiteManagement, authorizeSiteRead, presentStructure, presentWrittenStructure, readStructureFor, type ReadCredentials, type WrittenStructure } from './siteAccess.ts';
import { settleDefaults } from './siteStructure.ts';
import { checkedCondition } from '../lib/conditions.ts';
import { orderedSections } from '../lib/siteStructure.ts';
import { positionAmong } from '../lib/positions.ts';
import { addSpaceToSite } from './sites.ts';
import type { SiteStructureRows } from '../db/schema.ts';

function requireSiteSpace(structure: SiteStructureRows, siteSpaceId: string) {
  const siteSpace = structure.siteSpaces.find((ss) => ss.id === siteSpaceId);
  if (!siteSpace) throw new NotFound(`No site space with id "${siteSpaceId}" in this site`);
  return siteSpace;
}

/** A site space as the writer's transaction read its site after the change, presented after the commit (siteAccess.ts: presentWrittenStructure). */
async function presented(ctx: ServiceContext, actor: Actor, written: WrittenStructure, siteSpaceId: string) {
  return (await presentWrittenStructure(ctx, actor, written)).siteSpaces.find((ss) => ss.id === siteSpaceId)!;
}

/** Site spaces in reading order: section by section (or the root), then by position. */
export async function listSiteSpaces(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  options: PageRequest & ReadCredentials & { default?: boolean },
) {
  const reader = await authorizeSiteRead(ctx, actor, organizationId, siteId, options);
  const presentedStructure = await presentStructure(ctx, actor, reader);
  const sectionOrder = orderedSections(await readSiteStructure(ctx.db, siteId)).map((section) => section.id);
  const inOrder = [...presentedStructure.siteSpaces].sort(
    (a, b) => sectionOrder.indexOf(a.section ?? '') - sectionOrder.indexOf(b.section ?? ''),
  );
  const filtered = options.default === undefined ? inOrder : inOrder.filter((ss) => ss.default === options.default);
  return paginateList(filtered, options);
}

export async function addSiteSpace(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  input: { spaceId: string; sectionId?: string },
) {
  const { siteSpaceId, written } = await changeSite(ctx, organizationId, siteId, async (trx) => {
    const site = await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const structure = await readSiteStructure(trx, siteId);
    let sectionId: string | null = null;
    if (input.sectionId !== undefined) {
      if (!structure.sections.some((s) => s.id === input.sectionId)) {
        throw new BadRequest(`sectionId: no section "${input.sectionId}" in this site`);
      }
      sectionId = input.sectionId;
    } else if (structure.sections.length > 0) {
      sectionId = site.default_section_id;
    }
    const siteSpaceId = await addSpaceToSite(ctx, trx, site, input.spaceId, sectionId);
    return { siteSpaceId, written: await readStructureFor(trx, organizationId, siteId) };
  });
  return presented(ctx, actor, written, siteSpaceId);
}

export async function patchSiteSpace(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  changes: { path?: string; condition?: string | null },
) {
  const written = await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const structure = await readSiteStructure(trx, siteId);
    const siteSpace = requireSiteSpace(structure, siteSpaceId);
    const update: Parameters<typeof updateSiteSpace>[2] = {};
    if (changes.path !== undefined) {
      const clash = structure.siteSpaces.some(
        (ss) => ss.id !== siteSpaceId && ss.section_id === siteSpace.section_id && ss.path === changes.path,
      );
      if (clash) throw new Conflict(`path: another site space beside this one already uses "${changes.path}"`);
      update.path = changes.path;
    }
    const condition = checkedCondition('condition', changes.condition);
    if (condition !== undefined) update.condition = condition;
    await updateSiteSpace(trx, siteSpaceId, update);
    return readStructureFor(trx, organizationId, siteId);
  });
  return presented(ctx, actor, written, siteSpaceId);
}

export async function removeSiteSpace(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, siteSpaceId: string) {
  await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    requireSiteSpace(await readSiteStructure(trx, siteId), siteSpaceId);
    await deleteSiteSpace(trx, siteSpaceId);
    await settleDefaults(trx, siteId);
  });
}

export async function moveSiteSpace(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  position: { before?: { type: 'site-space'; siteSpace: string }; after?: { type: 'site-space'; siteSpace: string } } | undefined,
) {
  const written = await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const structure = await readSiteStructure(trx, siteId);
    const siteSpace = requireSiteSpace(structure, siteSpaceId);
    const siblings = structure.siteSpaces.filter((ss) => ss.section_id === siteSpace.section_id && ss.id !== siteSpaceId);
    await updateSiteSpace(trx, siteSpaceId, {
      position: positionAmong(
        siblings,
        { before: position?.before?.siteSpace, after: position?.after?.siteSpace },
        'site space',
      ),
    });
    return readStructureFor(trx, organizationId, siteId);
  });
  return presented(ctx, actor, written, siteSpaceId);
}
