// What an integration's script acts as when it calls Quire back: each installation has
// a user of its own, whose token the script receives with every event
// (`environment.apiTokens`), and whose grants are the spaces the integration is
// installed on, at the role its scopes give. Every check then goes through the one
// permission computation, as for a person: the token reaches nothing else (no
// organization membership, no other space). Uninstalling revokes the token.
import { deleteGrantsOfUser, upsertGrant } from '../db/repos/grants.ts';
import { findInstallationById, installationsOfIntegration, spacesOfInstallation, updateInstallationIdentity } from '../db/repos/integrations.ts';
import { lockRow } from '../db/dialect.ts';
import { insertUser } from '../db/repos/users.ts';
import type { Db, InstallationRow, IntegrationRow } from '../db/schema.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { Role } from '../lib/roles.ts';
import { seal, unseal } from '../lib/secretBox.ts';
import type { IntegrationManifest } from '../presenters/integration.ts';
import type { ServiceContext } from './context.ts';
import { issueApiToken, revokeToken } from './users.ts';

const WRITE_SCOPES = new Set(['space:content:write', 'space:metadata:write', 'space:git:sync']);

/** The role an integration's scopes give its installations on the spaces they are installed on; null: none. */
export function roleOfScopes(integration: IntegrationRow): Role | null {
  const scopes = (JSON.parse(integration.manifest) as IntegrationManifest).scopes ?? [];
  if (scopes.some((scope) => WRITE_SCOPES.has(scope))) return 'edit';
  return scopes.some((scope) => scope.startsWith('space:')) ? 'read' : null;
}

/** Makes the installation's user and token, unless it has them; answers the token. */
export async function installationToken(ctx: ServiceContext, trx: Db, installation: InstallationRow, integration: IntegrationRow): Promise<string> {
  // Two first events at once make one identity: the second waits, then finds it.
  await lockRow(trx, 'integration_installations', installation.id);
  const sealed = (await findInstallationById(trx, installation.id))?.sealed_token ?? null;
  if (sealed) return unseal(ctx.secretsKey(), sealed);
  const user = await insertUser(trx, {
    id: newId(),
    email: `installation-${installation.id.toLowerCase()}@integrations.quire.invalid`,
    display_name: integration.title,
    photo_url: null,
    created_at: isoNow(ctx.clock),
  });
  const { id, token } = await issueApiToken(trx, ctx.clock, user.id, `integration ${integration.name}, installation ${installation.id}`);
  await updateInstallationIdentity(trx, installation.id, { user_id: user.id, token_id: id, sealed_token: seal(ctx.secretsKey(), token) });
  await regrantInstallation(trx, { ...installation, user_id: user.id }, integration, ctx.clock);
  return token;
}

/**
 * Gives the installation's user exactly the spaces it is installed on: those it was
 * installed on one by one, or every live space of its organization when it is
 * installed on all (a space made later is granted with its first event).
 */
export async function regrantInstallation(trx: Db, installation: InstallationRow, integration: IntegrationRow, clock: ServiceContext['clock']): Promise<void> {
  if (!installation.user_id) return;
  await deleteGrantsOfUser(trx, installation.user_id);
  for (const spaceId of await spacesOfInstallation(trx, installation)) await grantInstallationSpace(trx, installation, integration, spaceId, clock);
}

/** Grants the installation's user a space, at the role the integration's scopes give (none when they ask for no space). */
export async function grantInstallationSpace(trx: Db, installation: InstallationRow, integration: IntegrationRow, spaceId: string, clock: ServiceContext['clock']): Promise<void> {
  const role = roleOfScopes(integration);
  if (!installation.user_id || !role) return;
  await upsertGrant(trx, { organization_id: installation.organization_id, target_kind: 'space', target_id: spaceId, user_id: installation.user_id, role, created_at: isoNow(clock) });
}

/** After a publication that may change the scopes: every installation's grants take the new role. */
export async function regrantInstallations(trx: Db, integration: IntegrationRow, clock: ServiceContext['clock']): Promise<void> {
  for (const installation of await installationsOfIntegration(trx, integration.name)) await regrantInstallation(trx, installation, integration, clock);
}

/** On uninstall: the token stops working and the grants go; the user stays as the author of what it wrote. */
export async function retireInstallationIdentity(ctx: ServiceContext, trx: Db, installation: InstallationRow): Promise<void> {
  if (!installation.user_id) return;
  await deleteGrantsOfUser(trx, installation.user_id);
  if (installation.token_id) await revokeToken(trx, ctx.clock, { tokenId: installation.token_id });
}
