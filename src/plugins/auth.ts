// Bearer-token authentication for every /v1 operation: request.actor is the caller.
// The token is looked up on every request (one indexed query joining its user), so
// a revoked token loses access at once, in every process sharing the database.
// Under /orgs/{organizationId} the same query also reads that organization and the
// caller's membership, which nearly every such operation authorizes against.
import type { FastifyInstance } from 'fastify';
import { findTokenOwner, findTokenOwnerWithOrganization } from '../db/repos/apiTokens.ts';
import { Unauthorized } from '../errors.ts';
import { hashToken } from '../lib/ids.ts';
import type { Actor } from '../services/context.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
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
    const tokenHash = hashToken(token);
    const { organizationId } = request.params as { organizationId?: unknown };
    const found =
      typeof organizationId === 'string'
        ? await findTokenOwnerWithOrganization(db, tokenHash, organizationId)
        : { owner: await findTokenOwner(db, tokenHash), organization: undefined };
    const owner = found?.owner;
    if (!owner) throw new Unauthorized('The API token is unknown or has been revoked');
    if (owner.sso_required_by) {
      throw new Unauthorized(
        `Organization "${owner.sso_required_by}" requires single sign-on for you: sign in through its SAML provider (its startURL) and use the token that gives you`,
      );
    }
    request.actor = {
      tokenId: owner.token_id,
      ...(typeof organizationId === 'string'
        ? { requestOrganization: { organizationId, organization: found!.organization } }
        : {}),
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
