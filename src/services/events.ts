// Events: the one seam through which a space's content and a site's settings change,
// and the outbox it feeds.
//
// `commitRevision` moves a space to a new revision (compare-and-swap) and, in the same
// transaction, writes the event (`space_content_updated`, GitBook's name) with one
// delivery per subscriber that has work to do and one durable job per delivery; a
// site's change writes `site_updated` the same way (`recordSitesUpdated`). What
// follows a change (the search index, the readers' documents, link checks, the
// renderer's cache, Git Sync's export, integrations' scripts) is a subscriber and
// nowhere else: a writer never repeats those steps, and a process that dies after the
// commit loses none of them, since any process's worker runs the jobs. A delivery is
// marked done once; a job run again after a crash finds it done and does nothing.
//
// This module imports no service: the subscribers are registered at start, at the
// composition root (jobs/subscribers.ts), as the job handlers are.
import { countDeliveryAttempt, deleteSettledEvents, endDelivery, findDelivery, findEvent, insertEvent, uncountDeliveryAttempt } from '../db/repos/events.ts';
import { findJobs } from '../db/repos/jobs.ts';
import { compareAndSetSpaceRevision } from '../db/repos/spaces.ts';
import type { Db, EventRow } from '../db/schema.ts';
import { Conflict } from '../errors.ts';
import { enqueueHeldJob, enqueueJob, enqueueJobOnce, MAX_JOB_ATTEMPTS, runHeldJob, startJobSoon, type HeldJob } from '../jobs/queue.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { SandboxStopping } from '../sandbox/sandbox.ts';
import type { Actor, ServiceContext } from './context.ts';

export const DELIVER_EVENT_JOB = 'deliver-event';

/** GitBook's `space_content_updated`, with what Quire's own subscribers need. */
export interface SpaceContentUpdated {
  type: 'space_content_updated';
  organizationId: string;
  spaceId: string;
  revisionId: string;
  /** Null for a space that starts with content (a duplicate). */
  previousRevisionId: string | null;
  /** Ids of the users who made the change. */
  updatedBy: string[];
  /** The change in words ("Merge change request #3: Fix typos"), for a commit message. */
  summary: string;
}

/** GitBook's `space_visibility_updated`. */
export interface SpaceVisibilityUpdated {
  type: 'space_visibility_updated';
  organizationId: string;
  spaceId: string;
  visibility: string;
  previousVisibility: string;
}

/** GitBook's `space_gitsync_started` and `space_gitsync_completed`. */
export interface SpaceGitSyncEvent {
  type: 'space_gitsync_started' | 'space_gitsync_completed';
  organizationId: string;
  spaceId: string;
  revisionId: string;
  commitId: string;
  state?: 'success' | 'failure';
}

/**
 * GitBook's events of one installation: set up (installed, or its configuration
 * changed) and deleted, on the organization, a space or a site. A deleted installation's
 * event carries what its script's environment shows of it (`gone`).
 */
export interface InstallationEvent {
  type: 'installation_setup' | 'installation_deleted' | 'space_installation_setup' | 'space_installation_deleted' | 'site_installation_setup' | 'site_installation_deleted';
  organizationId: string;
  spaceId: string | null;
  siteId?: string;
  installationId: string;
  status?: string;
  previous?: { status?: string; configuration?: Record<string, unknown> };
  gone?: { integration: string; installation: unknown; spaceInstallation?: unknown; siteInstallation?: unknown };
}

/** GitBook's `task`: work an integration queued for itself, delivered back to its installation later. */
export interface TaskEvent {
  type: 'task';
  organizationId: string;
  spaceId: null;
  installationId: string;
  task: Record<string, unknown>;
}

/** Quire's own: a site's settings or structure changed (never delivered to integrations, whose GitBook has no such event). */
export interface SiteUpdated {
  type: 'site_updated';
  organizationId: string;
  spaceId: null;
  siteId: string;
}

const siteUpdated = (organizationId: string, siteId: string): SiteUpdated => ({ type: 'site_updated', organizationId, spaceId: null, siteId });

/** The events integrations receive: GitBook's. */
export type IntegrationEvent = SpaceContentUpdated | SpaceVisibilityUpdated | SpaceGitSyncEvent | InstallationEvent | TaskEvent;

export type QuireEvent = IntegrationEvent | SiteUpdated;

export interface Subscriber {
  /**
   * Asked in the committing transaction: the deliveries this event gives the
   * subscriber, by target (an installation, say); [''] for one of its own, [] for none.
   * A subscriber may record there what its delivery will need, in the same commit.
   */
  targets(ctx: ServiceContext, trx: Db, event: QuireEvent): string[] | Promise<string[]>;
  run(ctx: ServiceContext, event: QuireEvent, target: string, eventId: string): Promise<unknown>;
}

/** The targets of a subscriber that has one delivery of its own. */
export const ONE = [''];

/** A subscriber to the changes of a space's content only. */
export function onContent(run: (ctx: ServiceContext, event: SpaceContentUpdated) => Promise<unknown>, wanted: (ctx: ServiceContext, trx: Db, event: SpaceContentUpdated) => boolean | Promise<boolean> = () => true): Subscriber {
  return {
    targets: async (ctx, trx, event) => (event.type === 'space_content_updated' && (await wanted(ctx, trx, event)) ? ONE : []),
    run: (ctx, event) => run(ctx, event as SpaceContentUpdated),
  };
}

/**
 * What follows a change, by name, in the order their deliveries are written: filled at
 * start by the composition root (jobs/subscribers.ts), never by a service.
 */
const SUBSCRIBERS = new Map<string, Subscriber>();

/** Adds (or replaces) a subscriber: called at start, before the first change. */
export function subscribe(name: string, subscriber: Subscriber): void {
  SUBSCRIBERS.set(name, subscriber);
}

/** A delivery's name: its subscriber, and its target after a colon (`integration:<installation id>`). */
export const deliveryName = (subscriber: string, target: string) => (target ? `${subscriber}:${target}` : subscriber);

/** The subscriber and target a delivery's name holds. */
export function deliveryTarget(name: string): { subscriber: string; target: string } {
  const [subscriber, target = ''] = name.split(/:(.*)/s);
  return { subscriber, target };
}

/** An event as its row in the outbox keeps it. */
export function eventOfRow(row: Pick<EventRow, 'type' | 'organization_id' | 'space_id' | 'payload'>): QuireEvent {
  return { type: row.type, organizationId: row.organization_id, spaceId: row.space_id, ...JSON.parse(row.payload) } as QuireEvent;
}

/** Done before the change's request answers: a search right after a merge finds the merged words. */
const BEFORE_ANSWER = new Set(['search-index']);

/** An event written with its change; `afterCommit` starts its deliveries once the transaction has committed. */
export interface CommittedEvent {
  /** Deliveries the change waits for before it answers, held for this process (enqueueHeldJob). */
  held: HeldJob[];
  /** The others' jobs, started here soon. */
  queued: string[];
}

export interface ContentChange {
  organizationId: string;
  spaceId: string;
  from: string;
  to: string;
  summary: string;
}

/**
 * The one step that moves a space's content: from `from` to `to` only if nothing moved
 * meanwhile (else 409), with the event and its deliveries, in the caller's transaction.
 */
export async function commitRevision(ctx: ServiceContext, trx: Db, actor: Actor, change: ContentChange): Promise<CommittedEvent> {
  if (!(await compareAndSetSpaceRevision(trx, change.spaceId, change.from, change.to, isoNow(ctx.clock)))) {
    throw new Conflict('The space changed meanwhile; try again');
  }
  return recordContentUpdated(ctx, trx, { ...change, previousRevisionId: change.from, revisionId: change.to, updatedBy: [actor.user.id] });
}

/**
 * Sites whose settings or structure changed, each told in the caller's transaction, by
 * the service that changed them: a site's own writes, and its spaces' (a site names its
 * spaces with their titles, and a space taken off it, deleted or moved to another
 * organization, must stop being served from the renderer's cache).
 */
export async function recordSitesUpdated(ctx: ServiceContext, trx: Db, organizationId: string, siteIds: string[]): Promise<CommittedEvent> {
  const committed: CommittedEvent = { held: [], queued: [] };
  for (const siteId of siteIds) {
    const site = await recordEvent(ctx, trx, siteUpdated(organizationId, siteId));
    committed.held.push(...site.held);
    committed.queued.push(...site.queued);
  }
  return committed;
}

/**
 * A change of one site's settings or structure (a write under
 * /orgs/{organizationId}/sites/{siteId}), made in one transaction with its
 * `site_updated` event, whose deliveries start once it has committed: what
 * commitRevision is to a space's content. A change that fails is never announced.
 */
export async function changeSite<T>(ctx: ServiceContext, organizationId: string, siteId: string, change: (trx: Db) => Promise<T>): Promise<T> {
  const { result, committed } = await ctx.db.transaction().execute(async (trx) => {
    const result = await change(trx);
    return { result, committed: await recordSitesUpdated(ctx, trx, organizationId, [siteId]) };
  });
  await afterCommit(ctx, committed);
  return result;
}

/** The event of a space that starts with content (a duplicate): nothing to swap. */
export function recordNewSpaceContent(ctx: ServiceContext, trx: Db, actor: Actor, space: { organizationId: string; spaceId: string; revisionId: string; summary: string }): Promise<CommittedEvent> {
  return recordContentUpdated(ctx, trx, { ...space, previousRevisionId: null, updatedBy: [actor.user.id] });
}

function recordContentUpdated(ctx: ServiceContext, trx: Db, change: Omit<SpaceContentUpdated, 'type'>): Promise<CommittedEvent> {
  return recordEvent(ctx, trx, { type: 'space_content_updated', ...change });
}

/**
 * Writes an event and its deliveries in the caller's transaction; `afterCommit` starts
 * them once it has committed, or a worker does at `deliverAt`.
 */
export async function recordEvent(ctx: ServiceContext, trx: Db, event: QuireEvent, options: { deliverAt?: Date } = {}): Promise<CommittedEvent> {
  const { deliverAt } = options;
  const eventId = newId();
  if (SUBSCRIBERS.size === 0) throw new Error('no subscriber of events is registered: call registerEventSubscribers (jobs/subscribers.ts) at start');
  const subscribers: string[] = [];
  for (const [name, subscriber] of SUBSCRIBERS) for (const target of await subscriber.targets(ctx, trx, event)) subscribers.push(deliveryName(name, target));
  // An event nobody acts on (a visibility change where no integration is installed) is not kept.
  if (subscribers.length === 0) return { held: [], queued: [] };
  const { type, organizationId, spaceId, ...payload } = event;
  await insertEvent(trx, { id: eventId, type, organization_id: organizationId, space_id: spaceId, payload: JSON.stringify(payload), created_at: isoNow(ctx.clock) }, subscribers);
  const committed: CommittedEvent = { held: [], queued: [] };
  for (const subscriber of subscribers) {
    const payload = { eventId, subscriber };
    // Deliveries for later wait for the worker.
    if (deliverAt) await enqueueJob(trx, ctx.clock, DELIVER_EVENT_JOB, payload, deliverAt);
    else if (BEFORE_ANSWER.has(subscriber)) committed.held.push(await enqueueHeldJob(ctx, trx, DELIVER_EVENT_JOB, payload));
    else committed.queued.push(await enqueueJob(trx, ctx.clock, DELIVER_EVENT_JOB, payload));
  }
  return committed;
}

/**
 * After the change committed: what a reader expects at once runs here and is waited
 * for; the rest starts here soon. Either way the jobs are durable: should this process
 * stop, another's worker runs them.
 */
export async function afterCommit(ctx: ServiceContext, committed: CommittedEvent | undefined): Promise<void> {
  if (!committed) return;
  for (const held of committed.held) await runHeldJob(ctx, held, deliverEvent);
  for (const jobId of committed.queued) startJobSoon(ctx, jobId, deliverEvent);
}

/** The job: one subscriber's work on one event, once; a failure is recorded and retried by the queue. */
export async function deliverEvent(ctx: ServiceContext, payload: { eventId: string; subscriber: string }): Promise<void> {
  const [delivery, row] = await Promise.all([findDelivery(ctx.db, payload.eventId, payload.subscriber), findEvent(ctx.db, payload.eventId)]);
  const { subscriber: name, target } = deliveryTarget(payload.subscriber);
  const subscriber = SUBSCRIBERS.get(name);
  if (!delivery || !row || delivery.state === 'done' || !subscriber) return;
  await countDeliveryAttempt(ctx.db, payload.eventId, payload.subscriber, isoNow(ctx.clock));
  try {
    await subscriber.run(ctx, eventOfRow(row), target, payload.eventId);
  } catch (error) {
    if (error instanceof SandboxStopping) {
      await uncountDeliveryAttempt(ctx.db, payload.eventId, payload.subscriber);
      throw error;
    }
    const state = delivery.attempts + 1 >= MAX_JOB_ATTEMPTS ? 'failed' : 'pending';
    await endDelivery(ctx.db, payload.eventId, payload.subscriber, { state, last_error: String((error as Error)?.message ?? error), updated_at: isoNow(ctx.clock) });
    throw error;
  }
  await endDelivery(ctx.db, payload.eventId, payload.subscriber, { state: 'done', last_error: null, updated_at: isoNow(ctx.clock) });
}

export const PRUNE_EVENTS_JOB = 'prune-events';
const EVENTS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
const PRUNED_AT_ONCE = 500;

/**
 * The daily job: forgets the events of more than 30 days ago whose deliveries have all
 * ended (done, or failed for good), a batch per transaction, then queues the next day's
 * run, unless another run is queued already.
 */
export async function pruneEvents(ctx: ServiceContext): Promise<void> {
  const before = new Date(ctx.clock.now().getTime() - EVENTS_KEPT_MS).toISOString();
  while ((await deleteSettledEvents(ctx.db, before, PRUNED_AT_ONCE)) === PRUNED_AT_ONCE);
  // This run's own job is still queued while it runs: another one means another chain.
  if ((await findJobs(ctx.db, PRUNE_EVENTS_JOB)).length > 1) return;
  await enqueueJob(ctx.db, ctx.clock, PRUNE_EVENTS_JOB, {}, new Date(ctx.clock.now().getTime() + PRUNE_EVERY_MS));
}

/** Every start makes sure the pruning is queued. */
export async function schedulePruning(ctx: ServiceContext): Promise<void> {
  await enqueueJobOnce(ctx, PRUNE_EVENTS_JOB, {});
}
