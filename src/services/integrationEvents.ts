// GitBook's events, delivered to the scripts of the integrations installed where they
// happen, in GitBook's host contract: a POST to /v1 of the script with a multipart form
// holding `event` and `environment` (GitBook's IntegrationEnvironment: the integration,
// the installation, the space installation, the decrypted secrets and the signing
// secrets). Each installation's delivery is one of the event's deliveries in the outbox.
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
import type { SpaceContentUpdated } from './events.ts';

/** The installations a space's event goes to: one delivery each. */
export function installationsReceiving(db: Db, event: SpaceContentUpdated): Promise<string[]> {
  return installationsOnSpace(db, event.organizationId, event.spaceId);
}

/** A secret the script can check incoming requests with, stable for its integration or installation and known to Quire alone. */
function signingSecret(ctx: ServiceContext, subject: string): string {
  return createHmac('sha256', ctx.secretsKey()).update(`integration-signing:${subject}`).digest('hex');
}

async function environmentOf(ctx: ServiceContext, integration: IntegrationRow, installation: InstallationWithCountsRow, spaceInstallation: SpaceInstallationRow | undefined) {
  const publicUrl = ctx.config.publicUrl;
  const owner = (await findOrganizationById(ctx.db, integration.organization_id))!;
  return {
    apiEndpoint: publicUrl,
    apiTokens: {},
    integration: presentIntegration(publicUrl, integration, presentOrganization(publicUrl, owner, { isMember: false, role: null, ownsTeam: false }), { admin: false, install: false }),
    installation: presentInstallation(publicUrl, installation),
    ...(spaceInstallation ? { spaceInstallation: presentSpaceInstallation(publicUrl, installation, spaceInstallation, spaceInstallation.space_id) } : {}),
    secrets: integration.secrets ? (JSON.parse(unseal(ctx.secretsKey(), integration.secrets)) as Record<string, string>) : {},
    signingSecrets: { integration: signingSecret(ctx, integration.name), installation: signingSecret(ctx, installation.id) },
  };
}

/**
 * Delivers a space's event to one installation's script, unless the integration was
 * uninstalled (from the space or the organization) or unpublished since. A script
 * that answers it does not handle the event (406) has had it; any other failure is
 * the delivery's, retried.
 */
export async function deliverToInstallation(ctx: ServiceContext, eventId: string, event: SpaceContentUpdated, installationId: string): Promise<void> {
  const installation = await findInstallationById(ctx.db, installationId);
  if (!installation || !(await installationsOnSpace(ctx.db, event.organizationId, event.spaceId)).includes(installationId)) return;
  const integration = await findIntegration(ctx.db, installation.integration_name);
  const script = integration && (await findIntegrationScript(ctx.db, integration.name, integration.version));
  if (!integration || !script) return;
  const [spaceInstallation, users] = await Promise.all([
    findSpaceInstallation(ctx.db, installationId, event.spaceId),
    Promise.all(event.updatedBy.map((userId) => findUserById(ctx.db, userId))),
  ]);
  const form = new FormData();
  form.set(
    'event',
    JSON.stringify({
      eventId,
      type: event.type,
      installationId,
      spaceId: event.spaceId,
      revisionId: event.revisionId,
      updatedBy: users.flatMap((user) => (user ? [presentUser(ctx.config.publicUrl, user)] : [])),
    }),
  );
  form.set('environment', JSON.stringify(await environmentOf(ctx, integration, installation, spaceInstallation)));
  const answer = await ctx.sandbox.run({ key: `${integration.name}@${integration.version}`, source: script.script }, form);
  if (answer.status >= 400 && answer.status !== 406) {
    throw new SandboxRefused(`the script of ${integration.name} answered ${answer.status} to ${event.type}: ${answer.body.slice(0, 500)}`);
  }
}
