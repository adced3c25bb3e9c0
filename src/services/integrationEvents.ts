// GitBook's events, delivered to the scripts of the integrations installed where they
// happen, in GitBook's host contract: a POST to /v1 of the script with a multipart form
// holding `event` and `environment` (GitBook's IntegrationEnvironment: the integration,
// the installation, the space installation, the decrypted secrets, the signing secrets
// and the installation's token, see integrationIdentity.ts). Each installation's
// delivery is one of the event's deliveries in the outbox.
import { createHmac } from 'node:crypto';
import { findInstallationById, findIntegration, findIntegrationScript, findSpaceInstallation, installationsOnSpace } from '../db/repos/integrations.ts';
import { findOrganizationById } from '../db/repos/organizations.ts';
import { findUserById } from '../db/repos/users.ts';
import type { Db, InstallationWithCountsRow, IntegrationRow, SpaceInstallationRow } from '../db/schema.ts';
import { unseal } from '../lib/secretBox.ts';
import { presentInstallation, presentIntegration, presentSpaceInstallation } from '../presenters/integration.ts';
import { presentOrganization } from '../presenters/organization.ts';
import { presentUser } from '../presenters/user.ts';
import { SandboxRefused } from '../sandbox/sandbox.ts';
import type { ServiceContext } from './context.ts';
import type { QuireEvent } from './events.ts';
import { installationToken } from './integrationIdentity.ts';

/** The installations an event goes to, one delivery each: its own installation's, or every installation on its space. */
export async function installationsReceiving(db: Db, event: QuireEvent): Promise<string[]> {
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

async function environmentOf(ctx: ServiceContext, integration: IntegrationRow, installation: InstallationWithCountsRow, spaceInstallation: SpaceInstallationRow | undefined) {
  const publicUrl = ctx.config.publicUrl;
  const base = await baseEnvironment(ctx, integration);
  // Installations made before they had identities get theirs with their first event.
  const token = await ctx.db.transaction().execute((trx) => installationToken(ctx, trx, installation, integration));
  return {
    ...base,
    // The integration acts through its installation: GitBook's runtime queues tasks with the first, calls the API with the second.
    apiTokens: { integration: token, installation: token },
    installation: presentInstallation(publicUrl, installation),
    ...(spaceInstallation ? { spaceInstallation: presentSpaceInstallation(publicUrl, installation, spaceInstallation, spaceInstallation.space_id) } : {}),
    signingSecrets: { ...base.signingSecrets, installation: signingSecret(ctx, installation.id) },
  };
}

/** The event as GitBook sends it to a script: its own fields, with none of Quire's. */
async function gitbookEvent(ctx: ServiceContext, eventId: string, event: QuireEvent, installationId: string) {
  const common = { eventId, type: event.type, installationId, ...(event.spaceId ? { spaceId: event.spaceId } : {}) };
  switch (event.type) {
    case 'space_content_updated': {
      const users = await Promise.all(event.updatedBy.map((userId) => findUserById(ctx.db, userId)));
      return { ...common, revisionId: event.revisionId, updatedBy: users.flatMap((user) => (user ? [presentUser(ctx.config.publicUrl, user)] : [])) };
    }
    case 'space_visibility_updated':
      return { ...common, visibility: event.visibility, previousVisibility: event.previousVisibility };
    case 'space_gitsync_started':
    case 'space_gitsync_completed':
      return { ...common, revisionId: event.revisionId, commitId: event.commitId, ...(event.state ? { state: event.state } : {}) };
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
export async function deliverToInstallation(ctx: ServiceContext, eventId: string, event: QuireEvent, installationId: string): Promise<void> {
  const gone = 'gone' in event ? event.gone : undefined;
  const installation = gone ? undefined : await findInstallationById(ctx.db, installationId);
  const integration = await findIntegration(ctx.db, gone?.integration ?? installation?.integration_name ?? '');
  const script = integration && (await findIntegrationScript(ctx.db, integration.name, integration.version));
  if (!integration || !script) return;
  let environment;
  if (gone) {
    environment = { ...(await baseEnvironment(ctx, integration)), apiTokens: {}, installation: gone.installation, ...(gone.spaceInstallation ? { spaceInstallation: gone.spaceInstallation } : {}) };
  } else {
    if (!installation) return;
    if (!('installationId' in event) && !(await installationsOnSpace(ctx.db, event.organizationId, event.spaceId)).includes(installationId)) return;
    const spaceInstallation = event.spaceId ? await findSpaceInstallation(ctx.db, installationId, event.spaceId) : undefined;
    environment = await environmentOf(ctx, integration, installation, spaceInstallation);
  }
  const form = new FormData();
  form.set('event', JSON.stringify(await gitbookEvent(ctx, eventId, event, installationId)));
  form.set('environment', JSON.stringify(environment));
  const answer = await ctx.sandbox.run({ key: `${integration.name}@${integration.version}`, source: script.script }, form);
  if (answer.status >= 400 && answer.status !== 406) {
    throw new SandboxRefused(`the script of ${integration.name} answered ${answer.status} to ${event.type}: ${answer.body.slice(0, 500)}`);
  }
}
