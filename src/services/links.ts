// Links and backlinks, read from the pages' markdown of a revision. In-app targets
// (pages, anchors, files, spaces) are checked against the revision itself; external
// URLs against what the link checker found (a durable job: HEAD, then GET, through
// the one URL fetcher), which a listing queues for URLs not checked in the last day.
import { getAll } from '../content/objects.ts';
import { hasScheme, namedFiles } from '../content/document.ts';
import type { PageLink, PageLinks } from '../content/links.ts';
import { runInTextBatches, runSized, type Priority } from '../workers/pool.ts';
import type { FlatPage } from '../content/tree.ts';
import { paginateList, type PageRequest } from '../db/pagination.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import { linkChecksFor, markLinksQueued, recordLinkCheck } from '../db/repos/linkChecks.ts';
import type { Db, LinkCheckRow } from '../db/schema.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { isoNow } from '../lib/clock.ts';
import { createFetcher, FetchRefused } from '../lib/safeFetch.ts';
import { requireChangeRequest } from './changeRequests.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts, loadContentCaller, spaceFacts, type AuthorizedSpace } from './contentAccess.ts';
import { spaceStanding } from '../policies/content.ts';
import { presentSpace } from '../presenters/content.ts';
import { findSpacesByIds, liveSpaceIdsAmong } from '../db/repos/spaces.ts';
import { openChangeRequestRevisions } from '../db/repos/changeRequests.ts';
import { loadRevision, requireFile, requirePage, type RevisionView } from './revisions.ts';
import { fileLinks } from './revisionContent.ts';
import { presentFile, presentRevision } from '../presenters/revision.ts';
import { getChangeRequest } from './changeRequests.ts';
import { accessFromRow, organizationWithAccess } from './organizations.ts';
import { presentAuthorized } from './spaces.ts';
import { presentOrganization } from '../presenters/organization.ts';
import { presentPage } from '../presenters/page.ts';

export const CHECK_LINKS_JOB = 'check-links';
const CHECK_EVERY_MS = 24 * 60 * 60 * 1000;
const REQUEUE_AFTER_MS = 10 * 60 * 1000;
const CHECK_TIMEOUT_MS = 5_000;
const CHECKS_AT_ONCE = 4;

type Status = 'ok' | 'broken' | 'in-app';

/**
 * Where links are read: a revision of a space, and the objects that name it in each
 * location and target (GitBook's ContentLocation), presented once per answer.
 */
interface Location {
  spaceId: string;
  organizationId: string;
  view: RevisionView;
  objects: {
    organization: ReturnType<typeof presentOrganization>;
    space: Awaited<ReturnType<typeof presentAuthorized>>;
    versionContext: { type: 'revision'; revision: ReturnType<typeof presentRevision> } | { type: 'changeRequest'; changeRequest: Awaited<ReturnType<typeof getChangeRequest>> };
  };
}

/** The location's objects for the caller, authorized on the space: its organization, the space, and the revision or change request read. */
async function locate(ctx: ServiceContext, actor: Actor, authorized: AuthorizedSpace, changeRequestId?: string): Promise<Location> {
  const { space } = authorized;
  const [organization, presentedSpace, changeRequest] = await Promise.all([
    organizationWithAccess(ctx, ctx.db, actor, space.organization_id),
    presentAuthorized(ctx, authorized),
    changeRequestId ? requireChangeRequest(ctx.db, space.id, changeRequestId) : undefined,
  ]);
  const view = await loadRevision(ctx, changeRequest ? changeRequest.revision_id : space.revision_id);
  return {
    spaceId: space.id,
    organizationId: space.organization_id,
    view,
    objects: {
      organization: presentOrganization(ctx.config.publicUrl, organization!, accessFromRow(organization)!),
      space: presentedSpace,
      versionContext: changeRequest
        ? { type: 'changeRequest', changeRequest: await getChangeRequest(ctx, actor, space.id, changeRequest.id) }
        : { type: 'revision', revision: presentRevision(fileLinks(ctx), space.id, view) },
    },
  };
}

/** Each revision's links, parsed once (kept in ctx.revisions.pageLinks): revisions never change. */
async function linksOfRevision(ctx: ServiceContext, view: RevisionView): Promise<Map<string, PageLinks>> {
  const known = ctx.revisions.pageLinks.get(view.revision.id);
  if (known) return known.links;
  const links = await linksOfPages(ctx.db, view, [...view.tree.values()].filter((page) => page.meta.type === 'document'));
  let weight = 0;
  for (const page of links.values()) weight += 1 + page.links.length + page.anchors.size;
  ctx.revisions.pageLinks.keep(view.revision.id, { links, weight });
  return links;
}

/** The links of some pages of a revision, parsed on the worker threads. */
async function linksOfPages(db: Db, view: RevisionView, documents: FlatPage[], priority?: Priority): Promise<Map<string, PageLinks>> {
  const markdown = await getAll(databaseObjectStore(db), documents.flatMap((page) => (page.blob ? [page.blob] : [])));
  const texts = documents.map((page) => ({ id: page.id, markdown: page.blob ? markdown.get(page.blob)! : '' }));
  const parsedPages = await runInTextBatches(texts, (text) => text.markdown.length, (batch, size) => runSized('linksOf', { pages: batch, tree: view.tree, files: namedFiles(view.files) }, size, { priority }));
  return new Map(documents.map((page, index) => [page.id, parsedPages[index]]));
}

function externalUrls(links: Iterable<PageLinks>): string[] {
  return [...new Set([...links].flatMap((page) => page.links.flatMap((link) => (link.target.kind === 'url' && isExternal(link.target.url) ? [link.target.url] : []))))];
}

/**
 * A subscriber to a space's content changes: queues checks of the external URLs that
 * the pages changed since `previous` link to, so that the links view is current when
 * someone opens it. Pages that did not change were checked when they did.
 */
export async function queueLinkChecksOfChange(ctx: ServiceContext, previous: string | null, current: string): Promise<void> {
  const [before, after] = await Promise.all([previous ? loadRevision(ctx, previous) : undefined, loadRevision(ctx, current)]);
  const changed = [...after.tree.values()].filter((page) => page.meta.type === 'document' && page.blob !== null && before?.tree.get(page.id)?.blob !== page.blob);
  if (changed.length === 0) return;
  const urls = externalUrls((await linksOfPages(ctx.db, after, changed, 'background')).values());
  if (urls.length > 0) await queueChecks(ctx, urls, await linkChecksFor(ctx.db, urls));
}

function isExternal(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

function statusOf(ctx: ServiceContext, link: PageLink, fromPage: string, all: Map<string, PageLinks>, view: RevisionView, live: Set<string>, checks: Map<string, LinkCheckRow>): Status {
  const target = link.target;
  switch (target.kind) {
    case 'page':
      if (!view.tree.has(target.page)) return 'broken';
      return !target.anchor || all.get(target.page)?.anchors.has(target.anchor) ? 'ok' : 'broken';
    case 'anchor':
      return all.get(fromPage)?.anchors.has(target.anchor) ? 'ok' : 'broken';
    case 'file':
      return view.files.some((file) => file.id === target.file) ? 'ok' : 'broken';
    case 'space':
      return live.has(target.space) ? 'ok' : 'broken';
    case 'url':
      if (target.url.startsWith(`${ctx.config.publicUrl}/`)) return 'in-app';
      if (isExternal(target.url)) return checks.get(target.url)?.ok === 0 ? 'broken' : 'ok';
      // Another scheme (mailto:, tel:) is not checked; a relative path that names no page is broken.
      return hasScheme(target.url) ? 'ok' : 'broken';
  }
}

/** A page of the location's revision, as GitBook's ContentLocation names it: by objects. */
function pageLocation(ctx: ServiceContext, location: Location, pageId: string, anchor?: string) {
  const { organization, space, versionContext } = location.objects;
  return {
    kind: 'page' as const,
    organization,
    space,
    versionContext,
    page: presentPage(ctx.config.publicUrl, location.spaceId, location.view.tree, location.view.tree.get(pageId)!, { nested: false, conditions: true }),
    ...(anchor ? { internalLocation: { type: 'anchor' as const, anchor } } : {}),
  };
}

/**
 * What a link points at, as GitBook's ContentLocation: a page or file of the revision,
 * or a space of the organization the caller sees, by objects; anything else (a URL, or
 * a page, file or space that is not there or not the caller's to see) by its address.
 */
function targetReference(ctx: ServiceContext, location: Location, link: PageLink, fromPage: string, spaces: Map<string, SpaceLocation>) {
  const target = link.target;
  const { organization, space, versionContext } = location.objects;
  switch (target.kind) {
    case 'page':
      return location.view.tree.has(target.page)
        ? pageLocation(ctx, location, target.page, target.anchor)
        : { kind: 'url' as const, url: `/pages/${target.page}${target.anchor ? `#${target.anchor}` : ''}` };
    case 'anchor':
      return pageLocation(ctx, location, fromPage, target.anchor);
    case 'file': {
      const file = location.view.files.find((candidate) => candidate.id === target.file);
      return file ? { kind: 'file' as const, organization, space, versionContext, file: presentFile(fileLinks(ctx), file) } : { kind: 'url' as const, url: `/files/${target.file}` };
    }
    case 'space':
      return spaces.get(target.space) ?? { kind: 'url' as const, url: `${ctx.config.publicUrl}/s/${target.space}/` };
    case 'url':
      return { kind: 'url' as const, url: target.url };
  }
}

type SpaceLocation = { kind: 'space'; organization: Location['objects']['organization']; space: ReturnType<typeof presentSpace> };

/** The spaces links point at that are live, in the location's organization, and the caller's to see, as locations. */
async function visibleSpaces(ctx: ServiceContext, actor: Actor, location: Location, links: PageLink[]): Promise<Map<string, SpaceLocation>> {
  const ids = [...new Set(links.flatMap((link) => (link.target.kind === 'space' ? [link.target.space] : [])))];
  if (ids.length === 0) return new Map();
  const [spaces, caller] = await Promise.all([findSpacesByIds(ctx.db, ids), loadContentCaller(ctx.db, location.organizationId, actor.user.id)]);
  const shown = new Map<string, SpaceLocation>();
  for (const space of spaces) {
    if (space.deleted_at !== null || space.organization_id !== location.organizationId) continue;
    const standing = spaceStanding(caller, spaceFacts(space));
    if (standing !== null) shown.set(space.id, { kind: 'space', organization: location.objects.organization, space: presentSpace(ctx.config.publicUrl, space, standing) });
  }
  return shown;
}

async function liveSpaces(db: Db, links: PageLink[]): Promise<Set<string>> {
  const ids = [...new Set(links.flatMap((link) => (link.target.kind === 'space' ? [link.target.space] : [])))];
  if (ids.length === 0) return new Set();
  return new Set(await liveSpaceIdsAmong(db, ids));
}

/** Queues a check of the external URLs not checked lately (nor queued in the last minutes). */
async function queueChecks(ctx: ServiceContext, urls: string[], checks: Map<string, LinkCheckRow>): Promise<void> {
  const now = ctx.clock.now().getTime();
  const due = urls.filter((url) => {
    const check = checks.get(url);
    const fresh = check?.checked_at && now - Date.parse(check.checked_at) < CHECK_EVERY_MS;
    const queued = check?.queued_at && now - Date.parse(check.queued_at) < REQUEUE_AFTER_MS;
    return !fresh && !queued;
  });
  if (due.length === 0) return;
  await ctx.db.transaction().execute(async (trx) => {
    await markLinksQueued(trx, due, isoNow(ctx.clock));
    await enqueueJob(trx, ctx.clock, CHECK_LINKS_JOB, { urls: due });
  });
}

/** The links of some pages of a revision, one item per target, with where each is found. */
async function linkItems(ctx: ServiceContext, actor: Actor, location: Location, pageIds?: string[]) {
  const all = await linksOfRevision(ctx, location.view);
  const pages = pageIds ?? [...all.keys()];
  const links = pages.flatMap((pageId) => (all.get(pageId)?.links ?? []).map((link) => ({ link, pageId })));
  const urls = externalUrls(pages.flatMap((pageId) => all.get(pageId) ?? []));
  const [checks, live, spaces] = await Promise.all([
    linkChecksFor(ctx.db, urls),
    liveSpaces(ctx.db, links.map(({ link }) => link)),
    visibleSpaces(ctx, actor, location, links.map(({ link }) => link)),
  ]);
  await queueChecks(ctx, urls, checks);
  const items = new Map<
    string,
    {
      status: Status;
      relation: PageLink['relation'];
      targetReference: ReturnType<typeof targetReference>;
      key: string;
      locationReferences: Array<ReturnType<typeof pageLocation>>;
      pageIds: Set<string>;
    }
  >();
  for (const { link, pageId } of links) {
    const target = targetReference(ctx, location, link, pageId, spaces);
    // One item per target: named by what it points at, not by the objects around it.
    const key = JSON.stringify([link.target.kind === 'anchor' ? { kind: 'page', page: pageId, anchor: link.target.anchor } : link.target, link.relation]);
    let item = items.get(key);
    if (!item) {
      item = { status: statusOf(ctx, link, pageId, all, location.view, live, checks), relation: link.relation, targetReference: target, key, locationReferences: [], pageIds: new Set() };
      items.set(key, item);
    }
    if (!item.pageIds.has(pageId)) {
      item.pageIds.add(pageId);
      item.locationReferences.push(pageLocation(ctx, location, pageId));
    }
  }
  return [...items.values()].map(({ pageIds: _pages, ...item }) => item);
}

function listWithStats(items: Awaited<ReturnType<typeof linkItems>>, status: Status | undefined, brokenInChangeRequests: number, page: PageRequest) {
  const shown = (status ? items.filter((item) => item.status === status) : items).map(({ key: _key, ...item }) => item);
  return {
    ...paginateList(shown, page),
    stats: { total: items.length, broken: { total: items.filter((item) => item.status === 'broken').length, changeRequest: brokenInChangeRequests } },
  };
}

export async function listSpaceLinks(ctx: ServiceContext, actor: Actor, spaceId: string, options: PageRequest & { status?: Status }) {
  const location = await locate(ctx, actor, await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'view'));
  const items = await linkItems(ctx, actor, location);
  const brokenInChangeRequests = new Set<string>();
  for (const revisionId of await openChangeRequestRevisions(ctx.db, spaceId)) {
    const view = await loadRevision(ctx, revisionId);
    for (const item of await linkItems(ctx, actor, { ...location, view })) {
      if (item.status === 'broken') brokenInChangeRequests.add(item.key);
    }
  }
  return listWithStats(items, options.status, brokenInChangeRequests.size, options);
}

async function changeRequestLocation(ctx: ServiceContext, actor: Actor, spaceId: string, changeRequestId: string): Promise<Location> {
  return locate(ctx, actor, await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'view'), changeRequestId);
}

export async function listChangeRequestPageLinks(ctx: ServiceContext, actor: Actor, spaceId: string, changeRequestId: string, pageId: string, page: PageRequest) {
  const location = await changeRequestLocation(ctx, actor, spaceId, changeRequestId);
  requirePage(location.view.tree, pageId);
  const items = await linkItems(ctx, actor, location, [pageId]);
  return listWithStats(items, undefined, items.filter((item) => item.status === 'broken').length, page);
}

export async function listChangeRequestFileBacklinks(ctx: ServiceContext, actor: Actor, spaceId: string, changeRequestId: string, fileId: string, page: PageRequest) {
  const location = await changeRequestLocation(ctx, actor, spaceId, changeRequestId);
  requireFile(location.view, fileId);
  const all = await linksOfRevision(ctx, location.view);
  const pages = [...all].filter(([, links]) => links.links.some((link) => link.target.kind === 'file' && link.target.file === fileId));
  return paginateList(pages.map(([pageId]) => pageLocation(ctx, location, pageId)), page);
}

/** The link checker's job: HEAD (GET when HEAD is refused) each URL, a few at a time. */
export async function checkLinks(ctx: ServiceContext, payload: { urls: string[] }): Promise<void> {
  const fetch = createFetcher(ctx.config.allowPrivateUrls);
  const queue = [...payload.urls];
  const check = async (url: string): Promise<[boolean, string]> => {
    const limits = { timeoutMs: CHECK_TIMEOUT_MS, maxBytes: 2 * 1024 * 1024 };
    try {
      let answer = await fetch(url, { ...limits, method: 'HEAD' });
      if (answer.status >= 400) answer = await fetch(url, limits);
      return [answer.status < 400, `HTTP ${answer.status}`];
    } catch (error) {
      if (!(error instanceof FetchRefused)) throw error;
      // Too large means it answered; an address or scheme Quire may not reach is not known to be broken.
      if (error.code === 'TOO_LARGE' || error.code === 'ADDRESS' || error.code === 'SCHEME') return [true, error.message];
      return [false, error.message];
    }
  };
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      const [ok, detail] = await check(url);
      await recordLinkCheck(ctx.db, url, ok, detail, isoNow(ctx.clock));
    }
  };
  await Promise.all(Array.from({ length: CHECKS_AT_ONCE }, worker));
}
