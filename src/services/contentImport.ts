// Website import: POST …/change-requests/{id}/content/import crawls a site from a URL
// (same origin, robots.txt respected, bounded pages, bytes and time, every fetch
// through the one URL fetcher), turns each page's main content into markdown, brings
// its images in as files, points links between imported pages at the imported pages,
// and writes all of it as one new revision of the change request. The work is a
// durable job that the request runs at once and waits for; the import's row is
// finished in the same transaction as the revision, so a job run twice imports once.
import robotsParser from 'robots-parser';
import { pageMarkdown, parsePage, type ParsedPage } from '../content/html.ts';
import { findContentImport, finishContentImport, insertContentImport } from '../db/repos/contentImports.ts';
import { findUserById } from '../db/repos/users.ts';
import { BadRequest, Forbidden } from '../errors.ts';
import { runJobNow } from '../jobs/queue.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { createFetcher, FetchRefused, type Fetcher } from '../lib/safeFetch.ts';
import { editChangeRequestContent, type ContentChangeInput } from './changeRequestContent.ts';
import { requireChangeRequest } from './changeRequests.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import { requireRevision, treeOf } from './revisions.ts';

export const IMPORT_WEBSITE_JOB = 'import-website';

/** Bounds of one crawl. */
export const CRAWL_LIMITS = {
  pages: 50,
  pageBytes: 2 * 1024 * 1024,
  totalBytes: 20 * 1024 * 1024,
  images: 100,
  imageBytes: 1024 * 1024,
  requestTimeoutMs: 3_000,
};

const USER_AGENT = 'Quire';

interface CrawledPage {
  url: string;
  parsed: ParsedPage;
}

interface Crawl {
  pages: CrawledPage[];
  /** Pages and images tried, imported or not. */
  attempted: number;
}

function sameOrigin(a: string, b: string): boolean {
  return new URL(a).origin === new URL(b).origin;
}

async function robotsFor(fetch: Fetcher, start: string) {
  const robotsUrl = new URL('/robots.txt', start).toString();
  try {
    const answer = await fetch(robotsUrl, { timeoutMs: CRAWL_LIMITS.requestTimeoutMs, maxBytes: 512 * 1024 });
    return robotsParser(robotsUrl, answer.status === 200 ? answer.body.toString('utf8') : '');
  } catch {
    return robotsParser(robotsUrl, '');
  }
}

/** Breadth-first from the start page, following links within its origin. */
async function crawl(fetch: Fetcher, start: string): Promise<Crawl> {
  const robots = await robotsFor(fetch, start);
  const queue = [start];
  const seen = new Set(queue);
  const pages: CrawledPage[] = [];
  let attempted = 0;
  let bytes = 0;
  while (queue.length > 0 && pages.length < CRAWL_LIMITS.pages && bytes < CRAWL_LIMITS.totalBytes) {
    const url = queue.shift()!;
    if (robots.isAllowed(url, USER_AGENT) === false) continue;
    attempted++;
    let answer;
    try {
      answer = await fetch(url, { timeoutMs: CRAWL_LIMITS.requestTimeoutMs, maxBytes: CRAWL_LIMITS.pageBytes, headers: { accept: 'text/html' } });
    } catch (error) {
      if (error instanceof FetchRefused) continue;
      throw error;
    }
    const type = String(answer.headers['content-type'] ?? '');
    if (answer.status !== 200 || !/text\/html|application\/xhtml/i.test(type)) continue;
    bytes += answer.body.length;
    // After redirects, the page is where it ended up; it must still be on the site.
    if (!sameOrigin(answer.url, start)) continue;
    const parsed = parsePage(answer.body.toString('utf8'), answer.url);
    pages.push({ url: answer.url, parsed });
    seen.add(answer.url);
    for (const link of parsed.links) {
      if (!seen.has(link) && /^https?:/.test(link) && sameOrigin(link, start)) {
        seen.add(link);
        queue.push(link);
      }
    }
  }
  return { pages, attempted };
}

interface PlannedPage {
  page: CrawledPage;
  ref: string;
  /** The batch ref of the parent page; none at the top level. */
  parent?: string;
  slug: string;
  /** The page's path in the revision, for links to it. */
  path: string;
}

/** A page's place in the imported tree: under the imported page whose URL path is the longest prefix of its own. */
function planTree(pages: CrawledPage[], takenSlugs: Set<string>) {
  const pathOf = (url: string) => new URL(url).pathname.replace(/\/(index\.html?)?$/i, '') || '/';
  const byPath = new Map(pages.map((page) => [pathOf(page.url), page]));
  const plan = new Map<string, PlannedPage>();
  const sorted = [...byPath.keys()].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  sorted.forEach((path, index) => {
    const segments = path.split('/').filter(Boolean);
    let parent: PlannedPage | undefined;
    for (let length = segments.length - 1; length >= 0 && !parent; length--) {
      const candidate = `/${segments.slice(0, length).join('/')}`;
      if (candidate !== path) parent = plan.get(candidate);
    }
    const parentRef = parent?.ref;
    const base = (segments[segments.length - 1] ?? 'home').toLowerCase().replace(/\.html?$/, '').replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'page';
    const siblings = parentRef ? new Set([...plan.values()].filter((entry) => entry.parent === parentRef).map((entry) => entry.slug)) : takenSlugs;
    let slug = base;
    for (let suffix = 2; siblings.has(slug); suffix++) slug = `${base}-${suffix}`;
    if (!parent) takenSlugs.add(slug);
    plan.set(path, { page: byPath.get(path)!, ref: `page${index}`, parent: parentRef, slug, path: parent ? `${parent.path}/${slug}` : slug });
  });
  return { plan, pathOf };
}

/** The images that could be fetched, by URL; `urls` are distinct and within the limit. */
async function fetchImages(fetch: Fetcher, urls: string[]) {
  const files = new Map<string, { ref: string; name: string; base64: string }>();
  for (const url of urls) {
    try {
      const answer = await fetch(url, { timeoutMs: CRAWL_LIMITS.requestTimeoutMs, maxBytes: CRAWL_LIMITS.imageBytes });
      if (answer.status !== 200 || !String(answer.headers['content-type'] ?? '').startsWith('image/')) continue;
      const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'image').slice(0, 100);
      files.set(url, { ref: `image${files.size}`, name, base64: answer.body.toString('base64') });
    } catch (error) {
      if (!(error instanceof FetchRefused)) throw error;
    }
  }
  return files;
}

interface ImportPayload {
  importId: string;
}

/** The import job: crawl, convert, and write one revision of the change request. */
export async function runWebsiteImport(ctx: ServiceContext, payload: ImportPayload): Promise<void> {
  const row = await findContentImport(ctx.db, payload.importId);
  if (!row || row.status !== 'pending') return;
  const user = await findUserById(ctx.db, row.created_by);
  if (!user) return;
  const actor: Actor = { user, tokenId: 'import' };
  const fetch = createFetcher(ctx.config.allowPrivateUrls);
  const { pages, attempted } = await crawl(fetch, row.url);
  const changeRequest = await requireChangeRequest(ctx.db, row.space_id, row.change_request_id);
  const tree = await treeOf(ctx, ctx.db, (await requireRevision(ctx, ctx.db, changeRequest.revision_id)).root_hash);
  const topSlugs = new Set([...tree.values()].filter((page) => page.parentId === null).map((page) => page.meta.slug));
  const { plan, pathOf } = planTree(pages, topSlugs);
  const imageUrls = [...new Set(pages.flatMap((page) => page.parsed.images))].slice(0, CRAWL_LIMITS.images);
  const images = await fetchImages(fetch, imageUrls);

  const changes: ContentChangeInput[] = [];
  if (images.size > 0) changes.push({ operation: 'insert_files', files: [...images.values()] });
  for (const { page, ...entry } of plan.values()) {
    const markdown = pageMarkdown(page.parsed, page.url, (url, kind) => {
      if (kind === 'image') return images.has(url) ? `/files/${images.get(url)!.ref}` : url;
      const target = sameOrigin(url, row.url) ? plan.get(pathOf(url)) : undefined;
      return target ? `/${target.path}` : url;
    });
    const title = page.parsed.title || entry.slug;
    changes.push({
      operation: 'insert_page',
      ref: entry.ref,
      ...(entry.parent ? { into: entry.parent } : {}),
      title,
      slug: entry.slug,
      document: markdown.startsWith('# ') ? markdown : `# ${title}\n\n${markdown}`,
    });
  }
  const totalResources = attempted + imageUrls.length;
  const importedResources = plan.size + images.size;
  const finish = async (trx: typeof ctx.db, revisionId: string) => {
    const finished = await finishContentImport(trx, row.id, { revisionId, importedResources, totalResources });
    // Another run of this job finished first: roll this revision back.
    if (!finished) throw new AlreadyImported();
  };
  try {
    if (changes.length === 0) await ctx.db.transaction().execute((trx) => finish(trx, changeRequest.revision_id));
    else await editChangeRequestContent(ctx, actor, row.space_id, row.change_request_id, changes, finish);
  } catch (error) {
    if (!(error instanceof AlreadyImported)) throw error;
  }
}

class AlreadyImported extends Error {}

export async function importIntoChangeRequest(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  changeRequestId: string,
  input: { url: string; source: 'website' },
) {
  await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'edit');
  const changeRequest = await requireChangeRequest(ctx.db, spaceId, changeRequestId);
  if (changeRequest.status === 'merged') throw new Forbidden('This change request is merged; import into an open one');
  // Refusals that retrying cannot mend are the caller's to hear now, not the job's.
  try {
    await createFetcher(ctx.config.allowPrivateUrls)(input.url, { method: 'HEAD', timeoutMs: CRAWL_LIMITS.requestTimeoutMs, maxBytes: CRAWL_LIMITS.pageBytes });
  } catch (error) {
    if (error instanceof FetchRefused && (error.code === 'SCHEME' || error.code === 'ADDRESS')) throw new BadRequest(`url: ${error.message}`);
  }
  const importId = newId();
  await insertContentImport(ctx.db, {
    id: importId,
    space_id: spaceId,
    change_request_id: changeRequest.id,
    url: input.url,
    created_by: actor.user.id,
    status: 'pending',
    revision_id: null,
    imported_resources: null,
    total_resources: null,
    created_at: isoNow(ctx.clock),
  });
  await runJobNow(ctx, IMPORT_WEBSITE_JOB, { importId }, runWebsiteImport);
  const done = (await findContentImport(ctx.db, importId))!;
  if (done.status !== 'done') {
    return { finished: false as const, result: { revision: changeRequest.revision_id, importedResources: 0, totalResources: 0 } };
  }
  return { finished: true as const, result: { revision: done.revision_id!, importedResources: done.imported_resources!, totalResources: done.total_resources! } };
}
