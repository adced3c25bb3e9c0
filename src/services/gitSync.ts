// Git Sync's connection: POST /v1/spaces/{spaceId}/git/import and …/git/export start an
// operation (a durable job, services/gitSyncRun.ts) and answer 204; GET …/git/info
// answers the connection, its last operation and failure, and the merges waiting for
// their commits; DELETE …/git forgets it. Push webhooks (…/git/webhook) and the poll
// bring a branch's new commits in without a call.
//
// The connection (remote, credentials sealed, branch, the person it acts as) changes
// only when an operation with it succeeds: a failed one, a mistyped URL say, leaves the
// sync as it was. A space that exports its changes queues each merge, in the
// transaction that makes it, until its own commit is pushed: a remote that is down
// delays the commits and loses none.
import { posix } from 'node:path';
import {
  claimDueGitSyncPolls,
  countGitSyncExports,
  deleteSpaceGitSync,
  findSpaceGitSync,
  insertGitSyncExport,
  updateSpaceGitSync,
  upsertSpaceGitSync,
} from '../db/repos/gitSync.ts';
import { findJobs } from '../db/repos/jobs.ts';
import type { Db, SpaceGitSyncRow } from '../db/schema.ts';
import { BadRequest, NotFound, Unauthorized } from '../errors.ts';
import { enqueueJob, enqueueJobOnce, RetryLater, startJobSoon } from '../jobs/queue.ts';
import { isoNow } from '../lib/clock.ts';
import { remoteHeadOf, withoutCredentials } from '../lib/gitRemote.ts';
import { verifiedHost, webhookCall } from '../lib/gitWebhooks.ts';
import { createFetcher } from '../lib/safeFetch.ts';
import { seal, unseal } from '../lib/secretBox.ts';
import { spacePermissions } from '../policies/content.ts';
import { presentGitSyncState } from '../presenters/gitSync.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import type { SpaceContentUpdated } from './events.ts';
import { GIT_SYNC_JOB, runGitSync, startConnectionOperation } from './gitSyncRun.ts';
import { mergesWaiting, runningOperation, targetColumns, type GitSyncPayload, type GitTarget } from './gitSyncState.ts';

export const GIT_SYNC_PULL_JOB = 'git-sync-pull';
export const GIT_SYNC_POLL_JOB = 'git-sync-poll';

interface GitOperationInput {
  url?: string;
  ref?: string;
  repoProjectDirectory?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  repoCacheID?: string;
  force?: boolean;
  timestamp?: string;
  gitInfo?: { provider?: string; url?: string };
  standalone?: boolean;
}

export type GitImportInput = GitOperationInput;
export type GitExportInput = GitOperationInput & { commitMessage: string };

function checkedRef(ref: string, direction: 'import' | 'export'): string {
  const full = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  if (!/^refs\/(heads|tags)\/[^\s~^:?*[\\]+$/.test(full) || full.includes('..') || full.endsWith('/') || full.endsWith('.lock')) {
    throw new BadRequest(`ref: "${ref}" is not a git ref; give a branch as "refs/heads/main"`);
  }
  if (direction === 'export' && !full.startsWith('refs/heads/')) throw new BadRequest(`ref: an export pushes to a branch ("refs/heads/…"), not ${full}`);
  return full;
}

function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadRequest('url: not a URL; give the repository\'s HTTPS address, such as https://github.com/acme/docs.git');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new BadRequest(`url: Git Sync speaks git over HTTP(S); ${parsed.protocol} URLs are not supported. Put a token in an https URL: https://user:token@host/repo.git`);
  }
  return url;
}

function checkedDirectory(directory: string): string {
  const clean = posix.normalize(directory.replace(/^\/+|\/+$/g, '') || '.');
  if (clean.startsWith('..')) throw new BadRequest('repoProjectDirectory: the project directory must be inside the repository');
  return clean === '.' ? '' : clean;
}

function providerOf(url: string, given: string | undefined): string | null {
  if (given) return given;
  const host = new URL(url).hostname;
  return host === 'github.com' ? 'github' : host === 'gitlab.com' ? 'gitlab' : null;
}

/**
 * Where an operation goes: what the request names, the connection for what it leaves
 * out. A URL given without credentials that is the connection's own keeps the
 * connection's credentials.
 */
function targetOf(ctx: ServiceContext, input: GitOperationInput, connection: SpaceGitSyncRow | undefined, direction: 'import' | 'export'): GitTarget {
  const connected = connection?.sealed_url ? connection : undefined;
  const remembered = connected ? unseal(ctx.secretsKey(), connected.sealed_url!) : undefined;
  if (input.url === undefined && !remembered) {
    throw new BadRequest("url: this space has no Git Sync connection yet; give the repository's URL, with a token if it needs one (https://user:token@github.com/acme/docs.git)");
  }
  const given = input.url === undefined ? undefined : checkedUrl(input.url);
  const bare = given !== undefined && !new URL(given).username && !new URL(given).password;
  const url = given === undefined || (bare && withoutCredentials(given) === connected?.url) ? remembered! : given;
  if (input.ref === undefined && !connected) throw new BadRequest('ref: this space has no Git Sync connection yet; give the branch, such as "refs/heads/main"');
  const sameRemote = connected?.url === withoutCredentials(url);
  return {
    sealedUrl: seal(ctx.secretsKey(), url),
    url: withoutCredentials(url),
    ref: input.ref === undefined ? connected!.ref : checkedRef(input.ref, direction),
    projectDirectory: input.repoProjectDirectory === undefined ? (connected?.project_directory ?? '') : checkedDirectory(input.repoProjectDirectory),
    treeUrl: input.gitInfo?.url ?? input.repoTreeURL ?? (sameRemote ? connected.tree_url : null),
    commitUrl: input.repoCommitURL ?? (sameRemote ? connected.commit_url : null),
    provider: providerOf(url, input.gitInfo?.provider) ?? (sameRemote ? connected.provider : null),
  };
}

/** Starts an import or an export; a request older than the last one asked for (by `timestamp`) is stale and does nothing. */
async function requestOperation(ctx: ServiceContext, actor: Actor, spaceId: string, direction: 'import' | 'export', input: GitOperationInput & { commitMessage?: string }): Promise<void> {
  const timestamp = input.timestamp ? new Date(input.timestamp).toISOString() : undefined;
  const jobId = await ctx.db.transaction().execute(async (trx) => {
    await authorizeSpaceDrafts(trx, actor, spaceId, 'triggerGitSync');
    const existing = await findSpaceGitSync(trx, spaceId);
    if (timestamp && existing?.last_timestamp && timestamp < existing.last_timestamp) return undefined;
    const target = targetOf(ctx, input, existing, direction);
    const operation = runningOperation(ctx, direction);
    // A connection stays as it is until the operation succeeds; without one, the row shows what is being tried.
    if (existing?.sealed_url) await updateSpaceGitSync(trx, spaceId, { ...operation, last_timestamp: timestamp ?? existing.last_timestamp });
    else await upsertSpaceGitSync(trx, newConnectionRow(spaceId, target, operation, timestamp ?? existing?.last_timestamp ?? null));
    const payload: GitSyncPayload = {
      spaceId,
      userId: actor.user.id,
      operation: operation.operation_id,
      direction,
      target,
      force: input.force ?? false,
      standalone: input.standalone ?? false,
      ...(direction === 'export' ? { commitMessage: input.commitMessage } : {}),
    };
    return enqueueJob(trx, ctx.clock, GIT_SYNC_JOB, payload);
  });
  if (jobId) startJobSoon(ctx, jobId, runGitSync);
}

/** The row of a space's first operation: it shows the remote asked for, and holds no connection until an operation succeeds. */
function newConnectionRow(spaceId: string, target: GitTarget, operation: ReturnType<typeof runningOperation>, timestamp: string | null): SpaceGitSyncRow {
  return {
    space_id: spaceId,
    ...targetColumns(target),
    last_commit: null,
    last_revision: null,
    last_timestamp: timestamp,
    ...operation,
    sealed_url: null,
    user_id: null,
    exports_changes: 0,
    sealed_webhook_secret: null,
    failure_error: null,
    failure_at: null,
    pushing: null,
    conflict_commit: null,
    conflict_revision: null,
    conflict_change_request: null,
    next_poll_at: null,
  };
}

export function importGitRepository(ctx: ServiceContext, actor: Actor, spaceId: string, input: GitImportInput): Promise<void> {
  return requestOperation(ctx, actor, spaceId, 'import', input);
}

export function exportToGitRepository(ctx: ServiceContext, actor: Actor, spaceId: string, input: GitExportInput): Promise<void> {
  return requestOperation(ctx, actor, spaceId, 'export', input);
}

/** Forgets the space's connection to git and the merges waiting for it; revisions keep the commits they match. */
export async function disconnectGitSync(ctx: ServiceContext, actor: Actor, spaceId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await authorizeSpaceDrafts(trx, actor, spaceId, 'triggerGitSync');
    if (!(await deleteSpaceGitSync(trx, spaceId))) throw new NotFound(`Space "${spaceId}" is not synced with a git repository`);
  });
}

/** The address push webhooks call for a space. */
export function webhookUrl(ctx: ServiceContext, spaceId: string): string {
  return `${ctx.config.publicUrl}/v1/spaces/${spaceId}/git/webhook`;
}

/** The space's Git Sync connection and its last operation, with the webhook to those who may set up the sync; 404 when it has none. */
export async function getSpaceGitInfo(ctx: ServiceContext, actor: Actor, spaceId: string) {
  const { role } = await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'view');
  const row = await findSpaceGitSync(ctx.db, spaceId);
  if (!row) throw new NotFound(`Space "${spaceId}" is not synced with a git repository`);
  const webhook = spacePermissions(role).triggerGitSync && row.sealed_webhook_secret ? { url: webhookUrl(ctx, spaceId), secret: unseal(ctx.secretsKey(), row.sealed_webhook_secret) } : undefined;
  return presentGitSyncState(row, { pendingExports: await countGitSyncExports(ctx.db, spaceId), ...(webhook ? { webhook } : {}) });
}

// ─── What follows a merge ───────────────────────────────────────────────────────────

/** In the transaction of a change to the space's content: queues its commit when the space exports its changes; answers whether it did. */
export async function queueExportOfChange(ctx: ServiceContext, trx: Db, change: SpaceContentUpdated): Promise<boolean> {
  const row = await findSpaceGitSync(trx, change.spaceId);
  if (row?.exports_changes !== 1) return false;
  await insertGitSyncExport(trx, { space_id: change.spaceId, revision_id: change.revisionId, summary: change.summary, author_id: change.updatedBy[0] ?? null, created_at: isoNow(ctx.clock) });
  return true;
}

// ─── Pushes: webhooks and polls ─────────────────────────────────────────────────────

const WEBHOOK_REFUSED = "The call is not signed with this space's Git Sync webhook secret; copy the secret from GET /v1/spaces/{spaceId}/git/info into the webhook's settings";

/**
 * A git host's call on push: refused (401, nothing changed) unless signed with the
 * space's secret; a push to the synced branch queues a pull. The same refusal for a
 * space with no webhook: a caller without the secret learns nothing of the space.
 */
export async function receiveGitWebhook(ctx: ServiceContext, spaceId: string, headers: Record<string, string | string[] | undefined>, body: Buffer) {
  const row = await findSpaceGitSync(ctx.db, spaceId);
  if (!row?.sealed_webhook_secret || !row.sealed_url) throw new Unauthorized(WEBHOOK_REFUSED);
  const host = verifiedHost(headers, body, unseal(ctx.secretsKey(), row.sealed_webhook_secret));
  if (!host) throw new Unauthorized(WEBHOOK_REFUSED);
  const call = webhookCall(host, headers, parsedPayload(headers, body));
  if (call.kind === 'ping') return { result: 'ping' as const, message: 'Git Sync will import pushes to ' + row.ref };
  if (call.kind === 'other') return { result: 'ignored' as const, message: `Git Sync acts on pushes, not on "${call.event}" events` };
  if (!call.refs.includes(row.ref)) return { result: 'ignored' as const, message: `The push moved ${call.refs.join(', ') || 'no branch'}, not ${row.ref}` };
  await queuePull(ctx, spaceId);
  return { result: 'started' as const, message: `Importing ${row.ref} from ${row.url}` };
}

/** A webhook's JSON, sent as the body or (GitHub's form content type) in its `payload` field; anything else reads as empty. */
function parsedPayload(headers: Record<string, string | string[] | undefined>, body: Buffer): unknown {
  try {
    const text = body.toString('utf8');
    if (String(headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return JSON.parse(new URLSearchParams(text).get('payload') ?? '{}');
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** Queues the pull of a space's branch and starts it here soon. */
async function queuePull(ctx: ServiceContext, spaceId: string): Promise<void> {
  startJobSoon(ctx, await enqueueJob(ctx.db, ctx.clock, GIT_SYNC_PULL_JOB, { spaceId }), pullGitSync);
}

/**
 * The job behind a push: brings the branch in as the connection's person, through the
 * export of waiting merges when there are some (which imports first). Waits while
 * another operation runs.
 */
export async function pullGitSync(ctx: ServiceContext, payload: { spaceId: string }): Promise<void> {
  const jobId = await ctx.db.transaction().execute(async (trx) => {
    const row = await findSpaceGitSync(trx, payload.spaceId);
    if (!row?.sealed_url || !row.user_id) return undefined;
    if (row.operation_state === 'running') throw new RetryLater(`Git Sync is running an ${row.operation_direction} of space ${payload.spaceId}; the pull waits for it`);
    const started = await startConnectionOperation(ctx, trx, row, (await mergesWaiting(trx, row)) ? 'export' : 'import');
    if (!started) throw new RetryLater(`Git Sync is running an operation of space ${payload.spaceId}; the pull waits for it`);
    return started;
  });
  if (jobId) startJobSoon(ctx, jobId, runGitSync);
}

/** Spaces one poll asks about at most; the rest are due at the next. */
const POLLED_AT_ONCE = 100;
/** The poll job runs at least this often, so a space is asked about soon after it is due. */
const POLL_JOB_EVERY_MS = 30_000;

/**
 * The recurring job: asks the remote of each connected space that is due whether its
 * branch moved (one small request), and pulls those that moved or have merges waiting.
 * A space is claimed by one process per poll. Then queues its next run, unless another is queued.
 */
export async function pollGitSync(ctx: ServiceContext): Promise<void> {
  const interval = (ctx.config.gitSyncPollSeconds ?? 0) * 1000;
  if (interval === 0) return;
  const now = ctx.clock.now();
  const due = await claimDueGitSyncPolls(ctx.db, now.toISOString(), new Date(now.getTime() + interval).toISOString(), POLLED_AT_ONCE);
  for (const row of due) {
    if (row.operation_state === 'running') continue;
    try {
      const waiting = await mergesWaiting(ctx.db, row);
      const head = waiting ? undefined : await remoteHeadOf(unseal(ctx.secretsKey(), row.sealed_url!), createFetcher(ctx.config.allowPrivateUrls), row.ref);
      if (waiting || (head !== undefined && head !== row.last_commit && head !== row.conflict_commit)) await queuePull(ctx, row.space_id);
    } catch (error) {
      const message = `Polling ${row.url} failed: ${(error as Error).message}`;
      ctx.log.warn({ spaceId: row.space_id, git: row.url }, message);
      await updateSpaceGitSync(ctx.db, row.space_id, { failure_error: message, failure_at: isoNow(ctx.clock) });
    }
  }
  // This run's own job is still queued while it runs: another one means another chain.
  if ((await findJobs(ctx.db, GIT_SYNC_POLL_JOB)).length > 1) return;
  await enqueueJob(ctx.db, ctx.clock, GIT_SYNC_POLL_JOB, {}, new Date(now.getTime() + Math.min(interval, POLL_JOB_EVERY_MS)));
}

/** Every start makes sure the poll is queued when polling is on. */
export async function schedulePolling(ctx: ServiceContext): Promise<void> {
  if (ctx.config.gitSyncPollSeconds) await enqueueJobOnce(ctx, GIT_SYNC_POLL_JOB, {});
}
