// Organizations: creating, reading and changing them, and the caller's access to one.
import { BadRequest, Conflict } from '../errors.ts';
import { findOrganizationWithAccess, findOrganizationsByEmailDomain, insertOrganization, isHostnameTaken, organizationsOfUserQuery, updateOrganization } from '../db/repos/organizations.ts';
import { insertMembership } from '../db/repos/members.ts';
import type { Db, OrganizationWithAccessRow, OrganizationRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isDomainName } from '../lib/domains.ts';
import { newId } from '../lib/ids.ts';
import { isoNow } from '../lib/clock.ts';
import { isRole, type Role } from '../lib/roles.ts';
import { authorizeOrganization, authorizeOrganizationResource, type OrganizationAccess, type OrganizationPermissions, organizationPermissions } from '../policies/organization.ts';
import { presentOrganization } from '../presenters/organization.ts';
import type { Actor, ServiceContext } from './context.ts';

export function accessFromRow(
  row: Pick<OrganizationWithAccessRow, 'member_role' | 'is_member' | 'owns_team'> | undefined,
): OrganizationAccess | undefined {
  if (!row) return undefined;
  return {
    isMember: row.is_member === 1,
    role: isRole(row.member_role) ? row.member_role : null,
    ownsTeam: row.owns_team === 1,
  };
}

/** Whether the caller, as read with the organization, administers it. */
export function isAdministrator(row: OrganizationWithAccessRow | undefined): boolean {
  const access = accessFromRow(row);
  return access !== undefined && organizationPermissions(access).admin;
}

/**
 * The organization and the caller's access to it. Outside a transaction, what the
 * request read with its token is as fresh as a new read; inside one, read afresh.
 */
export async function organizationWithAccess(
  ctx: ServiceContext,
  db: Db,
  actor: Actor,
  organizationId: string,
): Promise<OrganizationWithAccessRow | undefined> {
  const read = organizationReadWithToken(ctx, db, actor, organizationId);
  return read ? read.organization : findOrganizationWithAccess(db, organizationId, actor.user.id);
}

/** What the request read with its token about this organization, when it may stand for a new read: outside a transaction. */
export function organizationReadWithToken(ctx: ServiceContext, db: Db, actor: Actor, organizationId: string): Actor['requestOrganization'] {
  return db === ctx.db && actor.requestOrganization?.organizationId === organizationId ? actor.requestOrganization : undefined;
}

/** Loads an organization and checks the caller holds `permission` there (404 for non-members, 403 otherwise). */
export async function authorizeInOrganization(
  ctx: ServiceContext,
  db: Db,
  actor: Actor,
  organizationId: string,
  permission: keyof OrganizationPermissions,
): Promise<{ organization: OrganizationRow; access: OrganizationAccess }> {
  const row = await organizationWithAccess(ctx, db, actor, organizationId);
  const access = authorizeOrganization(accessFromRow(row), permission, organizationId);
  return { organization: row!, access };
}

/** For what an organization keeps for its members (OpenAPI specs, translation settings). */
export async function authorizeResourceInOrganization(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  action: 'view' | 'edit',
): Promise<OrganizationAccess> {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  authorizeOrganizationResource(access, action);
  return access;
}

export async function getOrganization(ctx: ServiceContext, actor: Actor, organizationId: string) {
  const { organization, access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  return presentOrganization(ctx.config.publicUrl, organization, access);
}

export function listOrganizations(ctx: ServiceContext, actor: Actor, page: PageRequest) {
  return paginate(
    organizationsOfUserQuery(ctx.db, actor.user.id),
    [
      { column: 'o.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'o.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => presentOrganization(ctx.config.publicUrl, row, accessFromRow(row)!),
  );
}

function normalizeEmailDomains(domains: string[]): string[] {
  const normalized = [...new Set(domains.map((domain) => domain.trim().toLowerCase()))];
  for (const domain of normalized) {
    if (!isDomainName(domain)) {
      throw new BadRequest(`emailDomains: "${domain}" is not a domain name such as example.com`);
    }
  }
  return normalized;
}

export interface OrganizationInput {
  title: string;
  emailDomains?: string[];
}

/** Creates an organization with `ownerId` as its first administrator. */
export async function createOrganizationFor(db: Db, clock: ServiceContext['clock'], ownerId: string, input: OrganizationInput) {
  const now = isoNow(clock);
  const organization: OrganizationRow = {
    id: newId(),
    title: input.title,
    hostname: null,
    email_domains: JSON.stringify(normalizeEmailDomains(input.emailDomains ?? [])),
    type: 'business',
    default_role: null,
    default_content_site: null,
    logo_url: null,
    sso: 0,
    ai: 0,
    invite_links: 1,
    created_at: now,
    updated_at: now,
  };
  await insertOrganization(db, organization);
  await insertMembership(db, {
    organization_id: organization.id,
    user_id: ownerId,
    role: 'admin',
    sso: 0,
    disabled: 0,
    joined_at: now,
    last_seen_at: null,
  });
  return organization;
}

export async function createOrganization(ctx: ServiceContext, actor: Actor, input: OrganizationInput) {
  const organization = await ctx.db
    .transaction()
    .execute((trx) => createOrganizationFor(trx, ctx.clock, actor.user.id, input));
  return presentOrganization(ctx.config.publicUrl, organization, { isMember: true, role: 'admin', ownsTeam: false });
}

export interface OrganizationChanges {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: Role | null;
  defaultContent?: { type: 'site'; site: string } | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
}

const HOSTNAME_PATTERN = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;

export async function patchOrganization(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  changes: OrganizationChanges,
) {
  await ctx.db.transaction().execute(async (trx) => {
    await authorizeInOrganization(ctx, trx, actor, organizationId, 'admin');
    const update: Parameters<typeof updateOrganization>[2] = { updated_at: isoNow(ctx.clock) };
    if (changes.title !== undefined) update.title = changes.title;
    if (changes.emailDomains !== undefined) {
      update.email_domains = JSON.stringify(normalizeEmailDomains(changes.emailDomains));
    }
    if (changes.hostname !== undefined) {
      const hostname = changes.hostname.toLowerCase();
      if (!HOSTNAME_PATTERN.test(hostname)) {
        throw new BadRequest(
          'hostname must be 3 to 32 letters, digits or hyphens, and start and end with a letter or digit',
        );
      }
      if (await isHostnameTaken(trx, hostname, organizationId)) {
        throw new Conflict(`The hostname "${hostname}" is already used by another organization`);
      }
      update.hostname = hostname;
    }
    if (changes.defaultRole !== undefined) update.default_role = changes.defaultRole;
    if (changes.defaultContent !== undefined) {
      if (changes.defaultContent !== null) {
        // Sites arrive with the sites capability; until then no site id can exist.
        throw new BadRequest(`defaultContent.site: no site with id "${changes.defaultContent.site}" in this organization`);
      }
      update.default_content_site = null;
    }
    if (changes.logo !== undefined) update.logo_url = changes.logo;
    if (changes.sso !== undefined) update.sso = changes.sso ? 1 : 0;
    if (changes.ai !== undefined) update.ai = changes.ai ? 1 : 0;
    if (changes.inviteLinks !== undefined) update.invite_links = changes.inviteLinks ? 1 : 0;
    await updateOrganization(trx, organizationId, update);
  });
  // Read afresh: what the request read with its token predates this change.
  const changed = await findOrganizationWithAccess(ctx.db, organizationId, actor.user.id);
  return presentOrganization(ctx.config.publicUrl, changed!, accessFromRow(changed)!);
}

/**
 * Organizations claiming an e-mail domain, for a person choosing which to join: only
 * when the domain is the caller's own e-mail domain, or among those the caller is in.
 */
export async function listOrganizationsForEmailDomain(ctx: ServiceContext, actor: Actor, emailDomain: string) {
  const domain = emailDomain.toLowerCase();
  const ownDomain = actor.user.email.split('@')[1] === domain;
  const rows = await findOrganizationsByEmailDomain(ctx.db, domain, actor.user.id);
  return {
    organizations: rows
      .filter((row) => ownDomain || row.is_member === 1)
      .map((row) => presentOrganization(ctx.config.publicUrl, row, accessFromRow(row)!)),
  };
}
