// GitBook's events, delivered to the scripts of the integrations installed where they
// happen, in GitBook's host contract: a POST to /v1 of the script with a multipart form
// holding `event` and `environment` (GitBook's IntegrationEnvironment: the integration,
// the installation, the space installation, the decrypted secrets, the signing secrets
// and the installation's token, see integrationIdentity.ts). Each installation's
// delivery is one of the event's deliveries in the outbox.
import { createHmac } from 'node:crypto';
import { newId } from '../lib/ids.ts';
import { deliveriesOf } from '../db/repos/events.ts';
import { findInstallationActingAs, findInstallationById, findIntegration, findIntegrationScript, findSiteInstallation, findSpaceInstallation, installationsOfIntegration, installationsOnSite, installationsOnSpace } from '../db/repos/integrations.ts';
import { findSite } from '../db/repos/sites.ts';
import { WeightBoundedCache } from '../lib/weightBoundedCache.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { Forbidden, NotFound, TryAgainLater } from '../errors.ts';
import { isAdministrator } from './organizations.ts';
import { visibleIntegration } from './integrations.ts';
import { findOrganizationById, findOrganizationWithAccess } from '../db/repos/organizations.ts';
import { findUserById } from '../db/repos/users.ts';
import type { Db, InstallationOnSiteRow, InstallationWithCountsRow, IntegrationRow, SiteInstallationRow, SiteRow, SpaceInstallationRow, UserRow } from '../db/schema.ts';
import { unseal } from '../lib/secretBox.ts';
import { presentInstallation, presentIntegration, presentSiteInstallation, presentSiteIntegrationScript, presentSpaceInstallation, type IntegrationManifest } from '../presenters/integration.ts';
import { presentOrganization } from '../presenters/organization.ts';
import { presentUser } from '../presenters/user.ts';
import { SandboxRefused, type ScriptAnswer } from '../sandbox/sandbox.ts';
import type { Actor, ServiceContext } from './context.ts';
import { afterCommit, deliveryName, deliveryTarget, eventOfRow, recordEvent, type IntegrationEvent } from './events.ts';
import { grantInstallationSpace, installationToken } from './integrationIdentity.ts';

/** The installations an event goes to, one delivery each: its own installation's, or every installation on its space. */
export async function installationsReceiving(db: Db, event: IntegrationEvent): Promise<string[]> {
  if ('installationId' in event) return [event.installationId];
  return installationsOnSpace(db, event.organizationId, event.spaceId);
}

/** A secret the script can check incoming requests with, stable for its integration or installation and known to Quire alone. */
function signingSecret(ctx: ServiceContext, subject: string): string {
  return createHmac('sha256', ctx.secretsKey()).update(`integration-signing:${subject}`).digest('hex');
}

/** What every environment holds: where the API is, the integration, its secrets and its signing secret. */
async function baseEnvironment(ctx: ServiceContext, integration: IntegrationRow) {
  const publicUrl = ctx.config.publicUrl;
  const owner = (await findOrganizationById(ctx.db, integration.organization_id))!;
  return {
    apiEndpoint: publicUrl,
    integration: presentIntegration(publicUrl, integration, presentOrganization(publicUrl, owner, { isMember: false, role: null, ownsTeam: false }), { admin: false, install: false }),
    secrets: integration.secrets ? (JSON.parse(unseal(ctx.secretsKey(), integration.secrets)) as Record<string, string>) : {},
    signingSecrets: { integration: signingSecret(ctx, integration.name) },
  };
}

async function environmentOf(
  ctx: ServiceContext,
  integration: IntegrationRow,
  installation: InstallationWithCountsRow,
  place: { spaceId?: string | null; spaceInstallation?: SpaceInstallationRow; siteInstallation?: SiteInstallationRow } = {},
) {
  const { spaceId, spaceInstallation, siteInstallation } = place;
  const publicUrl = ctx.config.publicUrl;
  const base = await baseEnvironment(ctx, integration);
  // Installations made before they had identities get theirs with their first event;
  // one installed on all spaces reaches a space made since with the space's first event.
  const token = await ctx.db.transaction().execute(async (trx) => {
    const made = await installationToken(ctx, trx, installation, integration);
    if (spaceInstallation === undefined && spaceId && installation.space_selection === 'all') {
      await grantInstallationSpace(trx, (await findInstallationById(trx, installation.id))!, integration, spaceId, ctx.clock);
    }
    return made;
  });
  return {
    ...base,
    // The integration acts through its installation: GitBook's runtime queues tasks with the first, calls the API with the second.
    apiTokens: { integration: token, installation: token },
    installation: presentInstallation(publicUrl, installation),
    ...(spaceInstallation ? { spaceInstallation: presentSpaceInstallation(publicUrl, installation, spaceInstallation, spaceInstallation.space_id) } : {}),
    ...(siteInstallation ? { siteInstallation: presentSiteInstallation(publicUrl, installation, siteInstallation, siteInstallation.site_id) } : {}),
    signingSecrets: {
      ...base.signingSecrets,
      installation: signingSecret(ctx, installation.id),
      ...(siteInstallation ? { siteInstallation: await siteInstallationSecret(ctx, integration, installation, siteInstallation) } : {}),
    },
  };
}

/** Whether the integration may sign a site's visitors in (GitBook's visitor-auth integrations). */
const signsVisitorsIn = (manifest: string) => (JSON.parse(manifest) as IntegrationManifest).scopes.includes('site:visitor:auth');

/**
 * What the script of an installation on a site signs with. A visitor-auth integration
 * signs the site's visitor tokens with it, as GitBook's do: for one, it is the site's
 * visitor key, which Quire verifies their tokens with and which regenerating replaces;
 * for any other, a secret of its own.
 */
async function siteInstallationSecret(ctx: ServiceContext, integration: IntegrationRow, installation: InstallationWithCountsRow, siteInstallation: SiteInstallationRow): Promise<string> {
  const site = signsVisitorsIn(integration.manifest) ? await findSite(ctx.db, installation.organization_id, siteInstallation.site_id) : undefined;
  return site?.visitor_key ?? signingSecret(ctx, `${installation.id}/sites/${siteInstallation.site_id}`);
}

/**
 * The installation that signs a site's visitors in when its backend is `integration`:
 * an active one on the site, with a site installation of its own, of an integration
 * with GitBook's `site:visitor:auth` scope; the first, when there are several.
 */
export async function visitorAuthInstallation(db: Db, site: Pick<SiteRow, 'id' | 'organization_id'>): Promise<{ installationId: string; integrationName: string } | undefined> {
  for (const candidate of await installationsOnSite(db, site.organization_id, site.id)) {
    if (!signsVisitorsIn(candidate.manifest)) continue;
    const own = await findSiteInstallation(db, candidate.installation_id, site.id);
    if (own?.status === 'active') return { installationId: candidate.installation_id, integrationName: candidate.integration_name };
  }
  return undefined;
}

/**
 * Where a visitor of a site signed in by its integration starts: the site's visitor-auth
 * integration asked with GitBook's fetch_visitor_authentication for the page asked for
 * (`location`), whose answer (a redirect to the integration's identity provider) is the
 * visitor's. No token, as a reader's browser asks; only for a published visitor-auth
 * site whose backend is that integration.
 */
export async function fetchVisitorAuthentication(ctx: ServiceContext, name: string, installationId: string, siteId: string, location: string): Promise<ScriptAnswer> {
  const installation = await findInstallationById(ctx.db, installationId);
  const site = installation?.integration_name === name ? await findSite(ctx.db, installation.organization_id, siteId) : undefined;
  const signing = site?.published === 1 && site.visibility === 'visitor-auth' && site.visitor_backend === 'integration' ? await visitorAuthInstallation(ctx.db, site) : undefined;
  const integration = signing?.installationId === installationId ? await findIntegration(ctx.db, name) : undefined;
  const siteInstallation = integration && (await findSiteInstallation(ctx.db, installationId, siteId));
  if (!installation || !integration || !siteInstallation) {
    throw new NotFound(`The integration "${name}" does not sign in the visitors of the site "${siteId}" through the installation "${installationId}"`);
  }
  const release = admitPublicFetch(`${name}/${installationId}/visitor-auth`);
  try {
    const event = { eventId: newId(), type: 'fetch_visitor_authentication', installationId, siteId, location };
    const answer = await runScript(ctx, integration, event, await environmentOf(ctx, integration, installation, { siteInstallation }));
    if (!answer) throw new NotFound(`The integration "${name}" has no script to run`);
    if (answer.status >= 400) throw scriptFailed(name, event.type, answer);
    return answer;
  } finally {
    release();
  }
}

/**
 * The event as GitBook sends it to a script: its own fields, with none of Quire's.
 * `withEmails: false` leaves out the e-mail addresses of the people named in it, for a
 * reader outside the organization where it happened.
 */
async function gitbookEvent(ctx: ServiceContext, eventId: string, event: IntegrationEvent, installationId: string, withEmails = true) {
  const common = { eventId, type: event.type, installationId, ...(event.spaceId ? { spaceId: event.spaceId } : {}), ...('siteId' in event && event.siteId ? { siteId: event.siteId } : {}) };
  switch (event.type) {
    case 'space_content_updated': {
      const users = await Promise.all(event.updatedBy.map((userId) => findUserById(ctx.db, userId)));
      const present = (user: UserRow) => {
        const { email, ...shown } = presentUser(ctx.config.publicUrl, user);
        return withEmails ? { ...shown, email } : shown;
      };
      return { ...common, revisionId: event.revisionId, updatedBy: users.flatMap((user) => (user ? [present(user)] : [])) };
    }
    case 'space_visibility_updated':
      return { ...common, visibility: event.visibility, previousVisibility: event.previousVisibility };
    case 'space_gitsync_started':
    case 'space_gitsync_completed':
      return { ...common, revisionId: event.revisionId, commitId: event.commitId, ...(event.state ? { state: event.state } : {}) };
    case 'task':
      return { ...common, task: event.task };
    default:
      return { ...common, ...(event.status ? { status: event.status } : {}), ...(event.previous ? { previous: event.previous } : {}) };
  }
}

/**
 * Delivers an event to one installation's script, unless the integration was
 * uninstalled (from the space or the organization) or unpublished since; the events
 * of an uninstallation go to the script all the same, with what it was. A script that
 * answers it does not handle the event (406) has had it; any other failure is the
 * delivery's, retried.
 */
export async function deliverToInstallation(ctx: ServiceContext, eventId: string, event: IntegrationEvent, installationId: string): Promise<void> {
  const gone = 'gone' in event ? event.gone : undefined;
  const installation = gone ? undefined : await findInstallationById(ctx.db, installationId);
  const integration = await findIntegration(ctx.db, gone?.integration ?? installation?.integration_name ?? '');
  if (!integration) return;
  let environment;
  if (gone) {
    environment = {
      ...(await baseEnvironment(ctx, integration)),
      apiTokens: {},
      installation: gone.installation,
      ...(gone.spaceInstallation ? { spaceInstallation: gone.spaceInstallation } : {}),
      ...(gone.siteInstallation ? { siteInstallation: gone.siteInstallation } : {}),
    };
  } else {
    if (!installation) return;
    if (!('installationId' in event) && !(await installationsOnSpace(ctx.db, event.organizationId, event.spaceId)).includes(installationId)) return;
    const spaceInstallation = event.spaceId ? await findSpaceInstallation(ctx.db, installationId, event.spaceId) : undefined;
    const siteInstallation = 'siteId' in event && event.siteId ? await findSiteInstallation(ctx.db, installationId, event.siteId) : undefined;
    environment = await environmentOf(ctx, integration, installation, { spaceId: event.spaceId, spaceInstallation, siteInstallation });
  }
  const answer = await runScript(ctx, integration, await gitbookEvent(ctx, eventId, event, installationId), environment);
  if (answer && answer.status >= 400 && answer.status !== 406) throw scriptFailed(integration.name, event.type, answer);
}

/** A script's answer of failure, as the failure of what asked for it. */
function scriptFailed(integrationName: string, eventType: string, answer: ScriptAnswer): SandboxRefused {
  return new SandboxRefused(`the script of ${integrationName} answered ${answer.status} to ${eventType}: ${answer.body.slice(0, 500)}`);
}

/**
 * An integration's deliveries, newest first, as GitBook's IntegrationEvent (with
 * Quire's attempts, error and `pending` besides): all of them for the administrators of
 * the organization that publishes it, their own installation's for those of an
 * organization that installed it.
 */
export async function listIntegrationEvents(ctx: ServiceContext, actor: Actor, name: string, options: PageRequest & { installationId?: string }) {
  const integration = await visibleIntegration(ctx.db, actor, name);
  const administers = async (organizationId: string) => isAdministrator(await findOrganizationWithAccess(ctx.db, organizationId, actor.user.id));
  const installations = await installationsOfIntegration(ctx.db, name);
  const owner = await administers(integration.organization_id);
  // The installations in organizations the caller administers: theirs to read whole.
  const own = new Set((await Promise.all(installations.map(async (installation) => ((await administers(installation.organization_id)) ? [installation.id] : [])))).flat());
  const visible = owner ? installations : installations.filter((installation) => own.has(installation.id));
  if (!owner && visible.length === 0) throw new Forbidden('Only administrators of an organization that publishes or installed this integration may read its events');
  const chosen = visible.filter((installation) => options.installationId === undefined || installation.id === options.installationId);
  const page = await paginate(
    deliveriesOf(ctx.db, chosen.map((installation) => deliveryName('integration', installation.id))),
    [
      { column: 'e.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'd.event_id', direction: 'desc', value: (row) => row.event_id },
      { column: 'd.subscriber', direction: 'desc', value: (row) => row.subscriber },
    ],
    options,
    (row) => row,
  );
  const items = await Promise.all(
    page.items.map(async (row) => {
      const installationId = deliveryTarget(row.subscriber).target;
      return {
        id: row.event_id,
        integrationId: name,
        installationId,
        createdAt: row.created_at,
        // The publisher reads other organizations' deliveries without their members' e-mail addresses. Integrations only ever have deliveries of their own events.
        payload: await gitbookEvent(ctx, row.event_id, eventOfRow(row) as IntegrationEvent, installationId, own.has(installationId)),
        status: row.state === 'done' ? ('success' as const) : row.state === 'failed' ? ('failed' as const) : ('pending' as const),
        attempts: row.attempts,
        ...(row.last_error ? { error: row.last_error } : {}),
        updatedAt: row.updated_at,
      };
    }),
  );
  return { ...page, items };
}

/**
 * GitBook's queueIntegrationTask: an installation's script, with its token, queues work
 * for itself, delivered back to it as a `task` event after `schedule` seconds. Any
 * other caller is told there is no such installation.
 */
export async function queueIntegrationTask(ctx: ServiceContext, actor: Actor, name: string, input: { task: Record<string, unknown>; schedule?: number }): Promise<void> {
  const committed = await ctx.db.transaction().execute(async (trx) => {
    const installation = await findInstallationActingAs(trx, name, actor.user.id);
    if (!installation) throw new NotFound(`No installation of the integration "${name}" acts with this token: tasks are queued by its scripts, with environment.apiTokens.integration`);
    const deliverAt = input.schedule ? new Date(ctx.clock.now().getTime() + Math.round(input.schedule * 1000)) : undefined;
    return recordEvent(ctx, trx, { type: 'task', organizationId: installation.organization_id, spaceId: null, installationId: installation.id, task: input.task }, { deliverAt });
  });
  await afterCommit(ctx, committed);
}

/**
 * GitBook's public endpoints: a request from elsewhere (a webhook of another service)
 * to an integration, or to one of its installations, goes into the script as a `fetch`
 * event, and its answer is the script's. No token: the script checks what it receives,
 * with its signing secret or the other service's.
 */
export async function fetchIntoIntegration(
  ctx: ServiceContext,
  name: string,
  installationId: string | undefined,
  request: { method: string; url: string; headers: Record<string, string>; body: Buffer | undefined },
  /** The site whose installation's endpoint was asked (its `urls.publicEndpoint`): the script then has the site installation. */
  siteId?: string,
) {
  const installation = installationId ? await findInstallationById(ctx.db, installationId) : undefined;
  const integration = !installationId || installation?.integration_name === name ? await findIntegration(ctx.db, name) : undefined;
  const siteInstallation = installationId && siteId ? await findSiteInstallation(ctx.db, installationId, siteId) : undefined;
  const notFound = new NotFound(
    siteId ? `No installation "${installationId}" of the integration "${name}" on the site "${siteId}"` : installationId ? `No installation "${installationId}" of the integration "${name}"` : `No integration "${name}"`,
  );
  if (!integration || (installationId && !installation) || (siteId && !siteInstallation)) throw notFound;
  const release = admitPublicFetch(installation ? `${name}/${installation.id}` : name);
  try {
    const event = { eventId: newId(), type: 'fetch', ...(installation ? { installationId: installation.id } : {}), ...(siteId ? { siteId } : {}), request: { url: request.url, method: request.method, headers: request.headers } };
    const environment = installation ? await environmentOf(ctx, integration, installation, { siteInstallation }) : { ...(await baseEnvironment(ctx, integration)), apiTokens: {} };
    const answer = await runScript(ctx, integration, event, environment, request.body);
    if (!answer) throw notFound;
    return answer;
  } finally {
    release();
  }
}

/**
 * The scripts a site's pages load (GitBook's SiteIntegrationScript): one for each active
 * installation on it (`installations`, installationsOnSite's) whose integration may
 * inject one, served at `baseUrl` (Quire's own URL, or the site's hostname for its pages
 * there). None while integrations cannot run.
 */
export function siteScripts(ctx: ServiceContext, site: Pick<SiteRow, 'id'>, installations: readonly InstallationOnSiteRow[], baseUrl = ctx.config.publicUrl) {
  if (ctx.sandbox.unavailable) return [];
  return installations.flatMap((installation) => {
    const manifest = injectingManifest(installation.manifest);
    return manifest ? [presentSiteIntegrationScript(baseUrl, installation, manifest, site.id)] : [];
  });
}

/** The integration's manifest, when its scopes let it inject a script into the pages of the sites it is installed on. */
function injectingManifest(manifest: string): IntegrationManifest | undefined {
  const parsed = JSON.parse(manifest) as IntegrationManifest;
  return parsed.scopes.includes('site:script:inject') ? parsed : undefined;
}

/** How long a published script is kept as the integration's script answered it, in this process and in browsers. */
export const PUBLISHED_SCRIPT_SECONDS = 300;
const publishedScripts = new WeightBoundedCache<{ body: string; expires: number }>(4_000_000, (entry) => entry.body.length, 256_000);

/**
 * A site's published script (GitBook's `fetch_published_script`): what the script of
 * an installation on the site answers, for the site's pages to load. No token, as a
 * reader's browser loads it; only for a published site the installation is active on,
 * of an integration allowed to inject scripts. Every page view loads it, so an answer
 * is kept for a few minutes by all it was made from: the integration's version, the
 * installation's and the site installation's configuration.
 */
export async function fetchPublishedScript(ctx: ServiceContext, name: string, installationId: string, siteId: string): Promise<string> {
  const installation = await findInstallationById(ctx.db, installationId);
  const site = installation?.integration_name === name ? await findSite(ctx.db, installation.organization_id, siteId) : undefined;
  const onSite = site?.published ? (await installationsOnSite(ctx.db, site.organization_id, site.id)).find((candidate) => candidate.installation_id === installationId) : undefined;
  const integration = onSite && injectingManifest(onSite.manifest) && (await findIntegration(ctx.db, name));
  if (!installation || !integration) {
    throw new NotFound(`No script of the integration "${name}" is published on the site "${siteId}" by the installation "${installationId}"`);
  }
  const siteInstallation = await findSiteInstallation(ctx.db, installationId, siteId);
  const key = JSON.stringify([name, integration.version, installationId, installation.configuration, siteId, siteInstallation?.configuration ?? null]);
  const now = ctx.clock.now().getTime();
  const kept = publishedScripts.get(key);
  if (kept && kept.expires > now) return kept.body;
  const release = admitPublicFetch(`${name}/${installationId}/script`);
  try {
    const event = { eventId: newId(), type: 'fetch_published_script', installationId, siteId };
    const answer = await runScript(ctx, integration, event, await environmentOf(ctx, integration, installation, { siteInstallation }));
    if (!answer) throw new NotFound(`The integration "${name}" has no script to run`);
    if (answer.status >= 400) throw scriptFailed(name, event.type, answer);
    publishedScripts.forget(key);
    publishedScripts.keep(key, { body: answer.body, expires: now + PUBLISHED_SCRIPT_SECONDS * 1000 });
    return answer.body;
  } finally {
    release();
  }
}

/** Requests one public endpoint may have running or waiting for its script, in this process. */
export const PUBLIC_FETCHES_PER_ENDPOINT = 8;
/** Requests all public endpoints together may have running or waiting, in this process. */
export const PUBLIC_FETCHES_IN_ALL = 32;
const PUBLIC_FETCH_RETRY_SECONDS = 5;
const publicFetchesAdmitted = new Map<string, number>();
let publicFetchesInAll = 0;

/**
 * Public endpoints take anyone's requests, and scripts run one event at a time: unbounded,
 * a flood at one endpoint would queue without end, each request holding its body, and
 * every integration's events and webhooks would wait behind it. Past either bound a
 * request is refused at once, to be sent again later; one busy endpoint leaves room
 * for the others. Answers the release of the request's place.
 */
function admitPublicFetch(endpoint: string): () => void {
  const admitted = publicFetchesAdmitted.get(endpoint) ?? 0;
  if (admitted >= PUBLIC_FETCHES_PER_ENDPOINT) {
    throw new TryAgainLater(429, `This endpoint already has ${admitted} requests waiting for the integration's script, the most it takes at once; send the request again in a few seconds`, PUBLIC_FETCH_RETRY_SECONDS);
  }
  if (publicFetchesInAll >= PUBLIC_FETCHES_IN_ALL) {
    throw new TryAgainLater(503, `Integration scripts already have ${publicFetchesInAll} requests from their public endpoints waiting, the most Quire takes at once; send the request again in a few seconds`, PUBLIC_FETCH_RETRY_SECONDS);
  }
  publicFetchesAdmitted.set(endpoint, admitted + 1);
  publicFetchesInAll++;
  return () => {
    const left = publicFetchesAdmitted.get(endpoint)! - 1;
    if (left === 0) publicFetchesAdmitted.delete(endpoint);
    else publicFetchesAdmitted.set(endpoint, left);
    publicFetchesInAll--;
  };
}

/**
 * Runs the integration's current script on one event, in GitBook's host contract: a
 * multipart form of `event`, `environment` and, for a request from elsewhere, its body
 * as `fetch-body`. Answers nothing when the integration has no script.
 */
async function runScript(ctx: ServiceContext, integration: IntegrationRow, event: object, environment: object, body?: Buffer) {
  const script = await findIntegrationScript(ctx.db, integration.name, integration.version);
  if (!script) return undefined;
  const form = new FormData();
  form.set('event', JSON.stringify(event));
  form.set('environment', JSON.stringify(environment));
  if (body && body.length > 0) form.set('fetch-body', body.toString('utf8'));
  return ctx.sandbox.run({ key: `${integration.name}@${integration.version}`, source: script.script }, form);
}
