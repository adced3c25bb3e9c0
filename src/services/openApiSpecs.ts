// OpenAPI specs: an organization's API descriptions, from a URL or from text. Every
// change of source queues a durable processing job (pending → progress → complete)
// that fetches the URL under the URL-safety rules, reads and validates the document,
// and stores a new version only when the text changed.
import { BadRequest, Conflict, NotFound } from '../errors.ts';
import { deleteOpenApiSpec, findOpenApiSpec, findOpenApiSpecBySlug, findOpenApiSpecVersion, insertOpenApiSpec, insertOpenApiSpecVersion, openApiSpecVersionsQuery, openApiSpecsQuery, updateOpenApiSpec } from '../db/repos/openApiSpecs.ts';
import type { Db, OpenApiSpecRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { hashOf } from '../content/objects.ts';
import { readOpenApiDocument, type OpenApiProblem } from '../content/openapi.ts';
import { runSized } from '../workers/pool.ts';
import { enqueueJob, startJobSoon } from '../jobs/queue.ts';
import { isoNow } from '../lib/clock.ts';
import { WeightBoundedCache } from '../lib/weightBoundedCache.ts';
import { newId } from '../lib/ids.ts';
import { createFetcher, FetchRefused } from '../lib/safeFetch.ts';
import { presentOpenApiSpec, presentOpenApiSpecVersion, presentOpenApiSpecContent } from '../presenters/openApiSpec.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeResourceInOrganization } from './organizations.ts';
import { siteTokenOpens } from './publishedAccess.ts';

export const PROCESS_OPENAPI_SPEC_JOB = 'process-openapi-spec';

/** A source URL has this long to answer in full. */
export const OPENAPI_FETCH_TIMEOUT_MS = 5_000;
/** The largest document Quire reads, from a URL or as text. */
export const OPENAPI_MAX_BYTES = 10 * 1024 * 1024;

export type OpenApiSource = { url: string } | { text: string };

async function requireSpec(db: Db, organizationId: string, slug: string): Promise<OpenApiSpecRow> {
  const spec = await findOpenApiSpecBySlug(db, organizationId, slug);
  if (!spec) throw new NotFound(`No OpenAPI spec "${slug}" in this organization`);
  return spec;
}

function sourceColumns(source: OpenApiSource): Pick<OpenApiSpecRow, 'source_url' | 'source_text'> {
  if ('url' in source) {
    const protocol = URL.canParse(source.url) ? new URL(source.url).protocol : '';
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new BadRequest('source.url: only http and https URLs can be fetched');
    }
    return { source_url: source.url, source_text: null };
  }
  if (Buffer.byteLength(source.text) > OPENAPI_MAX_BYTES) {
    throw new BadRequest(`source.text: larger than ${OPENAPI_MAX_BYTES / 1024 / 1024} MB`);
  }
  return { source_url: null, source_text: source.text };
}

export async function listOpenApiSpecs(ctx: ServiceContext, actor: Actor, organizationId: string, page: PageRequest) {
  const access = await authorizeResourceInOrganization(ctx, actor, organizationId, 'view');
  return paginate(
    openApiSpecsQuery(ctx.db, organizationId),
    [
      { column: 's.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 's.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => presentOpenApiSpec(ctx.config.publicUrl, row, access),
  );
}

export async function getOpenApiSpec(ctx: ServiceContext, actor: Actor, organizationId: string, slug: string) {
  const access = await authorizeResourceInOrganization(ctx, actor, organizationId, 'view');
  return presentOpenApiSpec(ctx.config.publicUrl, await requireSpec(ctx.db, organizationId, slug), access);
}

/**
 * POST creates (409 when the slug is taken); PUT creates or replaces the source. The
 * same text again queues nothing; the same URL is fetched again, since what it serves
 * may have changed (a version is stored only if it did).
 */
export async function saveOpenApiSpec(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  slug: string,
  source: OpenApiSource,
  mode: 'create' | 'upsert',
): Promise<{ created: boolean; spec: ReturnType<typeof presentOpenApiSpec> }> {
  const access = await authorizeResourceInOrganization(ctx, actor, organizationId, 'edit');
  const columns = sourceColumns(source);
  const now = isoNow(ctx.clock);
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const existing = await findOpenApiSpecBySlug(trx, organizationId, slug);
    if (existing && mode === 'create') {
      throw new Conflict(`An OpenAPI spec with slug "${slug}" already exists; PUT …/openapi/${slug} replaces its source`);
    }
    if (existing) {
      const unchanged = columns.source_text !== null && existing.source_text === columns.source_text;
      if (unchanged) return { created: false, specId: existing.id, jobId: undefined };
      await updateOpenApiSpec(trx, existing.id, { ...columns, processing_state: 'pending', updated_at: now });
      return { created: false, specId: existing.id, jobId: await enqueueJob(trx, ctx.clock, PROCESS_OPENAPI_SPEC_JOB, { specId: existing.id }) };
    }
    const specId = newId();
    await insertOpenApiSpec(trx, {
      id: specId,
      organization_id: organizationId,
      slug,
      ...columns,
      visibility: 'private',
      processing_state: 'pending',
      last_version_id: null,
      last_processed_at: null,
      last_error_code: null,
      last_errors: null,
      created_at: now,
      updated_at: now,
    });
    return { created: true, specId, jobId: await enqueueJob(trx, ctx.clock, PROCESS_OPENAPI_SPEC_JOB, { specId }) };
  });
  // Queued with the change, so durable; started here so that it does not wait for the worker.
  if (outcome.jobId) startJobSoon(ctx, outcome.jobId, processOpenApiSpec);
  const spec = (await findOpenApiSpec(ctx.db, outcome.specId))!;
  return { created: outcome.created, spec: presentOpenApiSpec(ctx.config.publicUrl, spec, access) };
}

export async function changeOpenApiSpecVisibility(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  slug: string,
  visibility: 'private' | 'public',
) {
  const access = await authorizeResourceInOrganization(ctx, actor, organizationId, 'edit');
  const spec = await requireSpec(ctx.db, organizationId, slug);
  await updateOpenApiSpec(ctx.db, spec.id, { visibility, updated_at: isoNow(ctx.clock) });
  return presentOpenApiSpec(ctx.config.publicUrl, (await findOpenApiSpec(ctx.db, spec.id))!, access);
}

export async function removeOpenApiSpec(ctx: ServiceContext, actor: Actor, organizationId: string, slug: string) {
  await authorizeResourceInOrganization(ctx, actor, organizationId, 'edit');
  await ctx.db.transaction().execute(async (trx) => deleteOpenApiSpec(trx, (await requireSpec(trx, organizationId, slug)).id));
}

export async function listOpenApiSpecVersions(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  slug: string,
  page: PageRequest,
) {
  await authorizeResourceInOrganization(ctx, actor, organizationId, 'view');
  const spec = await requireSpec(ctx.db, organizationId, slug);
  return paginate(
    openApiSpecVersionsQuery(ctx.db, spec.id),
    [
      { column: 'v.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'v.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => presentOpenApiSpecVersion(ctx.config.publicUrl, spec, row),
  );
}

/**
 * One version, by id or `latest`, for a caller who may read the organization's specs; or
 * the latest for a site token of the organization, whose published pages show it (as
 * the built-in reader shows it to their readers).
 */
async function readableVersion(ctx: ServiceContext, actor: Actor, organizationId: string, slug: string, versionId: string | 'latest') {
  if (actor.site) {
    if (actor.site.organization !== organizationId || versionId !== 'latest' || !(await siteTokenOpens(ctx.db, actor.site))) {
      throw new NotFound(`No OpenAPI spec "${slug}" in this organization`);
    }
  } else {
    await authorizeResourceInOrganization(ctx, actor, organizationId, 'view');
  }
  const spec = await requireSpec(ctx.db, organizationId, slug);
  const id = versionId === 'latest' ? spec.last_version_id : versionId;
  const version = id ? await findOpenApiSpecVersion(ctx.db, spec.id, id) : undefined;
  if (!version) {
    throw new NotFound(
      versionId === 'latest'
        ? `The OpenAPI spec "${slug}" has no version yet (processingState: ${spec.processing_state})`
        : `No version "${versionId}" of the OpenAPI spec "${slug}"`,
    );
  }
  return { spec, version };
}

export async function getOpenApiSpecVersion(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  slug: string,
  versionId: string | 'latest',
) {
  const { spec, version } = await readableVersion(ctx, actor, organizationId, slug, versionId);
  return presentOpenApiSpecVersion(ctx.config.publicUrl, spec, version);
}

export async function getOpenApiSpecVersionContent(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  slug: string,
  versionId: string | 'latest',
) {
  const { spec, version } = await readableVersion(ctx, actor, organizationId, slug, versionId);
  const reading = await readOpenApiDocument(version.text);
  if (!reading.ok) throw new Error(`stored OpenAPI version ${version.id} no longer reads: ${reading.problems[0]?.message}`);
  return presentOpenApiSpecContent(ctx.config.publicUrl, spec, version, reading.document);
}

/**
 * Parsed versions, by id: a version's text never changes, so neither does its document.
 * Bounded by their texts' length, 4 million characters in all: parsed, a spec holds
 * ~2.4 times its JSON text, so the 20 versions kept before, whatever their size, could be
 * 20 specs of 10 MB and ~500 MB. A larger spec is parsed again, off the request thread,
 * when a page showing it is rendered (rendered pages are kept).
 */
const parsedVersions = new WeightBoundedCache<{ document: Record<string, unknown>; textLength: number }>(4_000_000, (version) => version.textLength, 4_000_000);

/**
 * The latest processed document of an organization's spec, for published pages that show
 * its operations (anyone who may read the page sees them, as on GitBook), or undefined
 * when there is no such spec or no version yet.
 */
export async function publishedOpenApiDocument(ctx: ServiceContext, organizationId: string, slug: string): Promise<{ versionId: string; document: Record<string, unknown> } | undefined> {
  const spec = await findOpenApiSpecBySlug(ctx.db, organizationId, slug);
  if (!spec?.last_version_id) return undefined;
  const versionId = spec.last_version_id;
  const cached = parsedVersions.get(versionId);
  if (cached) return { versionId, document: cached.document };
  const version = await findOpenApiSpecVersion(ctx.db, spec.id, versionId);
  if (!version) return undefined;
  // Stored versions were validated when processed; a large one is parsed off the request thread.
  const document = await runSized('parseOpenApiText', { text: version.text }, version.text.length);
  parsedVersions.keep(versionId, { document, textLength: version.text.length });
  return { versionId, document };
}

/** The latest version of each of these specs (null: none yet, or no such spec): what a page showing them depends on. */
export async function latestOpenApiVersions(ctx: ServiceContext, organizationId: string, slugs: string[]): Promise<Array<string | null>> {
  return Promise.all(slugs.map(async (slug) => (await findOpenApiSpecBySlug(ctx.db, organizationId, slug))?.last_version_id ?? null));
}

type Fetched = { text: string } | { errorCode: 'FETCH_TIMEOUT' | 'FETCH_ERROR'; problem: OpenApiProblem };

async function fetchSource(ctx: ServiceContext, url: string): Promise<Fetched> {
  try {
    const response = await createFetcher(ctx.config.allowPrivateUrls)(url, {
      timeoutMs: OPENAPI_FETCH_TIMEOUT_MS,
      maxBytes: OPENAPI_MAX_BYTES,
      headers: { accept: 'application/yaml, application/json, text/yaml, */*' },
    });
    if (response.status >= 400) {
      return { errorCode: 'FETCH_ERROR', problem: { message: `${url} answered HTTP ${response.status}`, code: 'HTTP_STATUS' } };
    }
    return { text: response.body.toString('utf8') };
  } catch (error) {
    if (error instanceof FetchRefused) {
      return {
        errorCode: error.code === 'TIMEOUT' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR',
        problem: { message: error.message, code: error.code },
      };
    }
    throw error;
  }
}

/**
 * The processing job. Idempotent: a second run finds the same text and stores no new
 * version; a run whose source was replaced meanwhile leaves the spec to the newer job.
 */
export async function processOpenApiSpec(ctx: ServiceContext, payload: { specId: string }): Promise<void> {
  const spec = await findOpenApiSpec(ctx.db, payload.specId);
  if (!spec) return;
  await updateOpenApiSpec(ctx.db, spec.id, { processing_state: 'progress' });
  const fetched: Fetched = spec.source_url ? await fetchSource(ctx, spec.source_url) : { text: spec.source_text ?? '' };
  const reading = 'text' in fetched ? await readOpenApiDocument(fetched.text) : undefined;

  await ctx.db.transaction().execute(async (trx) => {
    const current = await findOpenApiSpec(trx, spec.id);
    if (!current || current.source_url !== spec.source_url || current.source_text !== spec.source_text) return;
    const now = isoNow(ctx.clock);
    const finished = { processing_state: 'complete' as const, last_processed_at: now };
    if (!('text' in fetched)) {
      await updateOpenApiSpec(trx, spec.id, {
        ...finished,
        last_error_code: fetched.errorCode,
        last_errors: JSON.stringify([fetched.problem]),
      });
      return;
    }
    if (!reading!.ok) {
      await updateOpenApiSpec(trx, spec.id, {
        ...finished,
        last_error_code: 'PARSE_ERROR',
        last_errors: JSON.stringify(reading!.problems),
      });
      return;
    }
    const digest = hashOf(fetched.text);
    const latest = current.last_version_id ? await findOpenApiSpecVersion(trx, spec.id, current.last_version_id) : undefined;
    let lastVersionId = current.last_version_id;
    if (latest?.digest !== digest) {
      lastVersionId = newId();
      await insertOpenApiSpecVersion(trx, {
        id: lastVersionId,
        spec_id: spec.id,
        digest,
        url: spec.source_url,
        text: fetched.text,
        created_at: now,
      });
    }
    await updateOpenApiSpec(trx, spec.id, {
      ...finished,
      last_version_id: lastVersionId,
      last_error_code: null,
      last_errors: null,
      updated_at: now,
    });
  });
}
