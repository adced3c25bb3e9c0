// Bearer-token authentication for every /v1 operation: request.actor is the caller.
// The token is looked up on every request (one indexed query joining its user), so
// a revoked token loses access at once, in every process sharing the database.
// Under /orgs/{organizationId} the same query also reads that organization and the
// caller's membership, which nearly every such operation authorizes against. A read
// (GET) under /spaces/{spaceId} reads that space and what the caller's roles on it
// depend on; a write reads them again inside its transaction, and may present what it
// changed afterwards, so it is given nothing read before.
//
// A site token (a JWT that POST /v1/urls/published mints for GitBook's renderer) is
// accepted too, on the operations that read published content and nothing else: those
// whose route says `config: { siteToken: true }`. Its reader is no one's member; what it
// may read is decided where all published access is (services/contentAccess.ts and
// services/siteAccess.ts), from the site it names. Its read under /spaces/{spaceId}
// reads that space and the site as published in one query.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findTokenOwner, findTokenOwnerWithOrganization, findTokenOwnerWithSpace } from '../db/repos/apiTokens.ts';
import { readSpaceWithPublishedSite } from '../db/repos/siteStructure.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { hashToken } from '../lib/ids.ts';
import { looksLikeJwt, verifySiteToken } from '../lib/siteTokens.ts';
import type { TokenOwnerRow } from '../db/schema.ts';
import type { Actor } from '../services/context.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** The operation reads published content, which a site token may. */
    siteToken?: boolean;
  }
}

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

export function requireBearerToken(app: FastifyInstance): void {
  const { db } = app.ctx;
  app.decorateRequest('actor', null as unknown as Actor);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) throw new Unauthorized();
    if (looksLikeJwt(token)) {
      const scope = await verifySiteToken(token, app.ctx.linkKey, app.ctx.clock.now());
      if (!scope) throw new Unauthorized('The site token is invalid or has expired; resolve the URL again (POST /v1/urls/published) for a fresh one');
      if (!request.routeOptions.config.siteToken) throw new Forbidden("A site token reads its site's published content and nothing else");
      const { spaceId } = request.params as { spaceId?: unknown };
      let readWithToken: Pick<Actor, 'requestSpace'> = {};
      if (typeof spaceId === 'string' && isRead(request)) {
        const found = await readSpaceWithPublishedSite(db, spaceId, scope.site);
        readWithToken = { requestSpace: { spaceId, space: found?.space, published: found?.published } };
      }
      request.actor = { tokenId: `site:${scope.site}`, user: siteReader(scope.site), site: scope, ...readWithToken };
      return;
    }
    const tokenHash = hashToken(token);
    const { organizationId, spaceId } = request.params as { organizationId?: unknown; spaceId?: unknown };
    let owner: TokenOwnerRow | undefined;
    let readWithToken: Pick<Actor, 'requestOrganization' | 'requestSpace'> = {};
    if (typeof organizationId === 'string') {
      const found = await findTokenOwnerWithOrganization(db, tokenHash, organizationId);
      owner = found?.owner;
      readWithToken = { requestOrganization: { organizationId, organization: found?.organization, accessVersion: found?.accessVersion ?? 0 } };
    } else if (typeof spaceId === 'string' && isRead(request)) {
      const found = await findTokenOwnerWithSpace(db, tokenHash, spaceId);
      owner = found?.owner;
      readWithToken = { requestSpace: { spaceId, space: found?.space } };
    } else {
      owner = await findTokenOwner(db, tokenHash);
    }
    if (!owner) throw new Unauthorized('The API token is unknown or has been revoked');
    if (owner.sso_required_by) {
      throw new Unauthorized(
        `Organization "${owner.sso_required_by}" requires single sign-on for you: sign in through its SAML provider (its startURL) and use the token that gives you`,
      );
    }
    request.actor = {
      tokenId: owner.token_id,
      ...readWithToken,
      user: {
        id: owner.user_id,
        email: owner.email,
        display_name: owner.display_name,
        photo_url: owner.photo_url,
        created_at: owner.created_at,
      },
    };
  });
}

/**
 * Only a read is given what its token's query read beside it: a write loads inside its
 * transaction (services/contentAccess.ts).
 */
function isRead(request: FastifyRequest): boolean {
  return request.method === 'GET' || request.method === 'HEAD';
}

/** Who reads through a site token: a user no organization has as a member. */
function siteReader(siteId: string): Actor['user'] {
  return { id: `site-reader:${siteId}`, email: '', display_name: 'Site reader', photo_url: null, created_at: EPOCH };
}

const EPOCH = new Date(0).toISOString();
