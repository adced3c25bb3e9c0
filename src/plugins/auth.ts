// Bearer-token authentication for every /v1 operation: request.actor is the caller.
// The token is looked up on every request (one indexed query joining its user), so
// a revoked token loses access at once, in every process sharing the database.
// Under /orgs/{organizationId} the same query also reads that organization and the
// caller's membership, which nearly every such operation authorizes against. A read
// (GET) under /spaces/{spaceId} reads that space and what the caller's roles on it
// depend on; a write reads them again inside its transaction, and may present what it
// changed afterwards, so it is given nothing read before.
//
// A browser signs in with the quire_session cookie (issue 73), which holds a session: an
// API token of kind 'session', looked up by the same queries, so its expiry and
// revocation hold exactly as a token's. `Authorization: Bearer` wins when both come. A
// write authenticated by the cookie must carry the session's CSRF token in X-CSRF-Token,
// which a cross-site form can neither read nor send; a cookie never stands for a site
// token. A token of scope 'read' may only read.
//
// A site token (a JWT that POST /v1/urls/published mints for GitBook's renderer) is
// accepted too, on the operations that read published content and nothing else: those
// whose route says `config: { siteToken: true }`. Its reader is no one's member; what it
// may read is decided where all published access is (services/contentAccess.ts and
// services/siteAccess.ts), from the site it names. Its read under /spaces/{spaceId}
// reads that space and the site as published in one query.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findTokenOwner, findTokenOwnerWithOrganization, findTokenOwnerWithSpace } from '../db/repos/apiTokens.ts';
import { touchToken } from '../db/repos/sessions.ts';
import { readSpaceWithPublishedSite } from '../db/repos/siteStructure.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { readCookie } from '../lib/cookies.ts';
import { hashToken } from '../lib/ids.ts';
import { looksLikeJwt, verifySiteToken } from '../lib/siteTokens.ts';
import type { TokenOwnerRow } from '../db/schema.ts';
import type { Actor, ServiceContext } from '../services/context.ts';
import { csrfTokenMatches, SESSION_COOKIE } from '../services/sessions.ts';

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
    const bearer = header ? BEARER.exec(header)?.[1] : undefined;
    const viaCookie = !header;
    const token = viaCookie ? readCookie(request.headers.cookie, SESSION_COOKIE) : bearer;
    if (!token) throw new Unauthorized();
    if (!viaCookie && looksLikeJwt(token)) {
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
    if (!owner) throw new Unauthorized(viaCookie ? SESSION_ENDED : 'The API token is unknown or has been revoked');
    await admitToken(app.ctx, request, owner, viaCookie);
    if (owner.sso_required_by) {
      throw new Unauthorized(
        `Organization "${owner.sso_required_by}" requires single sign-on for you: sign in through its SAML provider (its startURL) and use the token that gives you`,
      );
    }
    request.actor = {
      tokenId: owner.token_id,
      token: { kind: owner.token_kind, createdAt: owner.token_created_at, expiresAt: owner.token_expires_at, viaCookie },
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

const SESSION_ENDED = 'Your session has ended (signed out, revoked or expired); sign in again';

/** A minute between two writes of a token's last use: the sessions list needs no more. */
const TOUCH_MS = 60_000;

/**
 * What holds for a token found by its hash, whatever the operation: it has not expired;
 * a cookie carries a session, and a write by cookie proves with its CSRF token that it
 * comes from the app; a read token only reads. Its last use is written at most once a
 * minute, so a busy session costs no write per request.
 */
async function admitToken(ctx: ServiceContext, request: FastifyRequest, owner: TokenOwnerRow, viaCookie: boolean): Promise<void> {
  const now = ctx.clock.now();
  if (owner.token_expires_at !== null && owner.token_expires_at <= now.toISOString()) {
    throw new Unauthorized(owner.token_kind === 'session' ? SESSION_ENDED : 'The API token has expired; create a new one');
  }
  if (viaCookie && owner.token_kind !== 'session') throw new Unauthorized(SESSION_ENDED);
  if (viaCookie && !isSafe(request) && !csrfTokenMatches(ctx, owner.token_id, headerValue(request.headers['x-csrf-token']))) {
    throw new Forbidden('This request came with the session cookie but a missing or wrong CSRF token; reload the app');
  }
  if (owner.token_scope === 'read' && !isSafe(request)) {
    throw new Forbidden('This API token may only read (its scope is "read"); use a token with the "write" scope to make changes');
  }
  const stale = new Date(now.getTime() - TOUCH_MS).toISOString();
  if (owner.token_last_used_at === null || owner.token_last_used_at < stale) {
    await touchToken(ctx.db, owner.token_id, now.toISOString(), stale);
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Methods that change nothing: no CSRF token needed, and a read token may use them. */
function isSafe(request: FastifyRequest): boolean {
  return request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS';
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
