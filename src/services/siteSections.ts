// Site sections and section groups. A site without sections holds its site spaces
// directly; once it has sections every site space belongs to one, and sections may
// sit in groups. Ungrouped sections and groups share the site's top-level order.
import { generateNKeysBetween } from 'fractional-indexing';
import { BadRequest, Conflict, NotFound } from '../errors.ts';
import { deleteSection, deleteSectionGroup, insertSection, insertSectionGroup, readSiteStructure, updateSection, updateSectionGroup, updateSiteSpace } from '../db/repos/siteStructure.ts';
import { findSpace } from '../db/repos/spaces.ts';
import { updateSite } from '../db/repos/sites.ts';
import type { Db, SiteStructureRows } from '../db/schema.ts';
import { paginateList, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { Actor, ServiceContext } from './context.ts';
import { changeSite } from './events.ts';
import { authorizeSiteManagement, authorizeSiteRead, presentStructure, presentWrittenStructure, readStructureFor, type ReadCredentials, type WrittenStructure } from './siteAccess.ts';
import { settleDefaults } from './siteStructure.ts';
import { checkedCondition } from '../lib/conditions.ts';
import { positionAmong } from '../lib/positions.ts';
import { slugify, uniquePath } from '../lib/slugs.ts';
import { topLevelItems } from '../lib/siteStructure.ts';
import { addSpaceToSite } from './sites.ts';

/** A position among sections and groups: `{before|after: {type, id | siteSection | siteSectionGroup}}`. */
export interface StructurePointer {
  type: 'site-section' | 'site-section-group';
  id?: string;
  siteSection?: string;
  siteSectionGroup?: string;
}

export interface StructurePosition {
  before?: StructurePointer;
  after?: StructurePointer;
}

function pointerId(field: string, pointer: StructurePointer): string {
  const id = pointer.id ?? (pointer.type === 'site-section' ? pointer.siteSection : pointer.siteSectionGroup);
  if (!id) throw new BadRequest(`position.${field}: name the ${pointer.type} by its id`);
  return id;
}

/** Resolves pointers into ids, checking each names an item of the expected scope. */
function scopedPosition(
  position: StructurePosition | undefined,
  siblings: Array<{ id: string; kind: StructurePointer['type'] }>,
) {
  const resolve = (field: 'before' | 'after') => {
    const pointer = position?.[field];
    if (!pointer) return undefined;
    const id = pointerId(field, pointer);
    const sibling = siblings.find((item) => item.id === id);
    if (!sibling || sibling.kind !== pointer.type) {
      throw new BadRequest(`position.${field}: no ${pointer.type} "${id}" beside this item in this site`);
    }
    return id;
  };
  return { before: resolve('before'), after: resolve('after') };
}

/** The top-level items as siblings with their positions, without `excludeId`. */
function topLevelSiblings(structure: SiteStructureRows, excludeId: string) {
  return topLevelItems(structure)
    .map((item) =>
      item.group
        ? { id: item.group.id, position: item.group.position, kind: 'site-section-group' as const }
        : { id: item.section!.id, position: item.section!.position, kind: 'site-section' as const },
    )
    .filter((item) => item.id !== excludeId);
}

// A writer presents what its transaction read of the site after the change, after the
// commit (siteAccess.ts: presentWrittenStructure), without authorizing again.
async function presentedSection(ctx: ServiceContext, actor: Actor, written: WrittenStructure, sectionId: string) {
  return (await presentWrittenStructure(ctx, actor, written)).sections.find((section) => section.id === sectionId)!;
}

async function presentedGroup(ctx: ServiceContext, actor: Actor, written: WrittenStructure, groupId: string) {
  return (await presentWrittenStructure(ctx, actor, written)).groups!.find((group) => group.id === groupId)!;
}

function requireSection(structure: SiteStructureRows, sectionId: string) {
  const section = structure.sections.find((s) => s.id === sectionId);
  if (!section) throw new NotFound(`No section with id "${sectionId}" in this site`);
  return section;
}

function requireGroup(structure: SiteStructureRows, groupId: string) {
  const group = structure.groups.find((g) => g.id === groupId);
  if (!group) throw new NotFound(`No section group with id "${groupId}" in this site`);
  return group;
}

export async function listSections(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  options: PageRequest & ReadCredentials,
) {
  const reader = await authorizeSiteRead(ctx, actor, organizationId, siteId, options);
  return paginateList((await presentStructure(ctx, actor, reader)).sections, options);
}

/**
 * Adds a section holding `spaceId` as its first site space. A site that held site
 * spaces directly first gathers them into a section named after the site (the
 * default one), so that every site space belongs to a section.
 */
export async function addSection(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  input: { spaceId: string; title?: string | null; icon?: string | null },
) {
  const sectionId = newId();
  const written = await changeSite(ctx, organizationId, siteId, async (trx) => {
    const site = await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const space = await findSpace(trx, input.spaceId);
    if (!space || space.deleted_at !== null || space.organization_id !== organizationId) {
      throw new BadRequest(`spaceId: no space with id "${input.spaceId}" in this organization`);
    }
    if (site.default_section_id === null && site.default_site_space_id !== null) {
      await gatherRootSiteSpaces(ctx, trx, site.id, site.title, site.default_site_space_id);
    }
    const structure = await readSiteStructure(trx, siteId);
    const title = input.title ?? space.title;
    await insertSection(trx, {
      id: sectionId,
      site_id: siteId,
      group_id: null,
      title: title.length >= 2 ? title : `${title} section`.trim(),
      description: null,
      path: uniquePath(slugify(title, 'section'), structure.sections.map((s) => s.path)),
      condition: null,
      icon: input.icon ?? null,
      position: positionAmong(topLevelSiblings(structure, ''), undefined, 'section'),
      default_site_space_id: null,
      created_at: isoNow(ctx.clock),
    });
    await addSpaceToSite(ctx, trx, site, input.spaceId, sectionId);
    return readStructureFor(trx, organizationId, siteId);
  });
  return presentedSection(ctx, actor, written, sectionId);
}

/** Puts the site spaces a site held directly into a first, default section. */
async function gatherRootSiteSpaces(ctx: ServiceContext, trx: Db, siteId: string, siteTitle: string, defaultSiteSpaceId: string) {
  const structure = await readSiteStructure(trx, siteId);
  const gatheringId = newId();
  await insertSection(trx, {
    id: gatheringId,
    site_id: siteId,
    group_id: null,
    title: siteTitle,
    description: null,
    path: slugify(siteTitle, 'section'),
    condition: null,
    icon: null,
    position: positionAmong([], undefined, 'section'),
    default_site_space_id: defaultSiteSpaceId,
    created_at: isoNow(ctx.clock),
  });
  for (const siteSpace of structure.siteSpaces) await updateSiteSpace(trx, siteSpace.id, { section_id: gatheringId });
  await updateSite(trx, siteId, { default_section_id: gatheringId, default_site_space_id: null });
}

export async function patchSection(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  sectionId: string,
  changes: {
    title?: string;
    path?: string;
    defaultSiteSpace?: string;
    condition?: string | null;
    icon?: string | null;
    description?: string | null;
  },
) {
  const written = await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const structure = await readSiteStructure(trx, siteId);
    requireSection(structure, sectionId);
    const update: Parameters<typeof updateSection>[2] = {};
    if (changes.title !== undefined) update.title = changes.title;
    if (changes.icon !== undefined) update.icon = changes.icon;
    if (changes.description !== undefined) update.description = changes.description;
    const condition = checkedCondition('condition', changes.condition);
    if (condition !== undefined) update.condition = condition;
    if (changes.path !== undefined) {
      if (structure.sections.some((s) => s.id !== sectionId && s.path === changes.path)) {
        throw new Conflict(`path: another section of this site already uses "${changes.path}"`);
      }
      update.path = changes.path;
    }
    if (changes.defaultSiteSpace !== undefined) {
      if (!structure.siteSpaces.some((ss) => ss.id === changes.defaultSiteSpace && ss.section_id === sectionId)) {
        throw new BadRequest(`defaultSiteSpace: no site space "${changes.defaultSiteSpace}" in this section`);
      }
      update.default_site_space_id = changes.defaultSiteSpace;
    }
    await updateSection(trx, sectionId, update);
    return readStructureFor(trx, organizationId, siteId);
  });
  return presentedSection(ctx, actor, written, sectionId);
}

/** Deletes a section with its site spaces (never the spaces); another becomes default if needed. */
export async function removeSection(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, sectionId: string) {
  await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    requireSection(await readSiteStructure(trx, siteId), sectionId);
    await deleteSection(trx, sectionId);
    await settleDefaults(trx, siteId);
  });
}

/** Sections and groups move among the siblings of their own level: the top level, or within their group. */
function sectionSiblings(structure: SiteStructureRows, sectionId: string) {
  const section = requireSection(structure, sectionId);
  if (section.group_id === null) return topLevelSiblings(structure, sectionId);
  return structure.sections
    .filter((s) => s.group_id === section.group_id && s.id !== sectionId)
    .map((s) => ({ id: s.id, position: s.position, kind: 'site-section' as const }));
}

export async function moveSection(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  sectionId: string,
  position: StructurePosition | undefined,
) {
  const written = await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const siblings = sectionSiblings(await readSiteStructure(trx, siteId), sectionId);
    await updateSection(trx, sectionId, { position: positionAmong(siblings, scopedPosition(position, siblings), 'item') });
    return readStructureFor(trx, organizationId, siteId);
  });
  return presentedSection(ctx, actor, written, sectionId);
}

export async function listSectionGroups(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  page: PageRequest,
) {
  const reader = await authorizeSiteRead(ctx, actor, organizationId, siteId, {});
  const structure = await presentStructure(ctx, actor, reader);
  const inOrder = structure.structure.filter((item) => item.object === 'site-section-group');
  return paginateList(inOrder, page);
}

/** Moves sections into a group, at its end, in the order given. */
async function groupSections(db: Db, structure: SiteStructureRows, groupId: string, sectionIds: string[]) {
  let members = structure.sections.filter((s) => s.group_id === groupId && !sectionIds.includes(s.id));
  for (const sectionId of sectionIds) {
    requireSection(structure, sectionId);
    const position = positionAmong(members, undefined, 'section');
    await updateSection(db, sectionId, { group_id: groupId, position });
    members = [...members, { ...requireSection(structure, sectionId), position }];
  }
}

export async function createSectionGroup(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  input: { title: string; icon?: string | null; sections?: string[] },
) {
  const groupId = newId();
  const written = await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const structure = await readSiteStructure(trx, siteId);
    for (const sectionId of input.sections ?? []) {
      if (!structure.sections.some((s) => s.id === sectionId)) {
        throw new BadRequest(`sections: no section "${sectionId}" in this site`);
      }
    }
    await insertSectionGroup(trx, {
      id: groupId,
      site_id: siteId,
      title: input.title,
      icon: input.icon ?? null,
      position: positionAmong(topLevelSiblings(structure, ''), undefined, 'item'),
      created_at: isoNow(ctx.clock),
    });
    await groupSections(trx, structure, groupId, input.sections ?? []);
    return readStructureFor(trx, organizationId, siteId);
  });
  return presentedGroup(ctx, actor, written, groupId);
}

export async function patchSectionGroup(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  groupId: string,
  changes: { title?: string; icon?: string | null },
) {
  const written = await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    requireGroup(await readSiteStructure(trx, siteId), groupId);
    await updateSectionGroup(trx, groupId, {
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.icon !== undefined ? { icon: changes.icon } : {}),
    });
    return readStructureFor(trx, organizationId, siteId);
  });
  return presentedGroup(ctx, actor, written, groupId);
}

/** Deletes a group; its sections stay, back at the top level where the group was. */
export async function removeSectionGroup(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, groupId: string) {
  await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const structure = await readSiteStructure(trx, siteId);
    const group = requireGroup(structure, groupId);
    const siblings = topLevelSiblings(structure, groupId);
    const previous = siblings.filter((item) => item.position < group.position).at(-1)?.position ?? null;
    const next = siblings.find((item) => item.position > group.position)?.position ?? null;
    const members = structure.sections.filter((s) => s.group_id === groupId);
    const positions = generateNKeysBetween(previous, next, members.length);
    for (const [index, section] of members.entries()) {
      await updateSection(trx, section.id, { group_id: null, position: positions[index] });
    }
    await deleteSectionGroup(trx, groupId);
  });
}

export async function addSectionToGroup(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  groupId: string,
  sectionId: string,
) {
  const written = await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const structure = await readSiteStructure(trx, siteId);
    requireGroup(structure, groupId);
    if (!structure.sections.some((s) => s.id === sectionId)) throw new BadRequest(`sectionId: no section "${sectionId}" in this site`);
    await groupSections(trx, structure, groupId, [sectionId]);
    return readStructureFor(trx, organizationId, siteId);
  });
  return presentedGroup(ctx, actor, written, groupId);
}

export async function removeSectionFromGroup(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  groupId: string,
  sectionId: string,
) {
  await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const structure = await readSiteStructure(trx, siteId);
    requireGroup(structure, groupId);
    const section = requireSection(structure, sectionId);
    if (section.group_id !== groupId) throw new NotFound(`Section "${sectionId}" is not in this group`);
    await updateSection(trx, sectionId, {
      group_id: null,
      position: positionAmong(topLevelSiblings(structure, sectionId), undefined, 'item'),
    });
  });
}

export async function moveSectionGroup(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  siteId: string,
  groupId: string,
  position: StructurePosition | undefined,
) {
  const written = await changeSite(ctx, organizationId, siteId, async (trx) => {
    await authorizeSiteManagement(ctx, trx, actor, organizationId, siteId);
    const structure = await readSiteStructure(trx, siteId);
    requireGroup(structure, groupId);
    const siblings = topLevelSiblings(structure, groupId);
    await updateSectionGroup(trx, groupId, { position: positionAmong(siblings, scopedPosition(position, siblings), 'item') });
    return readStructureFor(trx, organizationId, siteId);
  });
  return presentedGroup(ctx, actor, written, groupId);
}
