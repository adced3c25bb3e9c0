// The published sites, served to readers at their urls.published (/sites/<siteId>/…)
// and at their custom hostnames, and the instance's list of the public ones (/sites).
// A share-link key given once as ?share_key= (or GitBook's shareKey) is kept in a
// cookie for the site's path; a visitor token as ?jwt_token= likewise. Hidden from the
// API document: these are pages, not operations.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { readFileSync } from 'node:fs';
import type { ServiceContext } from '../services/context.ts';
import { policyHeader, widenedPolicy, type Policy } from '../lib/contentSecurityPolicy.ts';
import { readCookie } from '../lib/cookies.ts';
import { READER_SCRIPT_PATH } from './layout.ts';
import { siteAtHostname, type SiteAddress } from '../services/publishedReads.ts';
import { readFrontPage, readPublishedPage } from './site.ts';

/** The pages' one script (copy buttons, instant search), served from Quire's own origin so the pages' policy allows no other. */
const READER_SCRIPT = readFileSync(new URL('./assets/reader.js', import.meta.url), 'utf8');

const LIMITS = { share_key: 200, shareKey: 200, jwt_token: 8192, q: 200 } as const;
type ReaderQuery = { -readonly [name in keyof typeof LIMITS]?: string };

const Query = Type.Object({
  share_key: Type.Optional(Type.String({ maxLength: LIMITS.share_key })),
  shareKey: Type.Optional(Type.String({ maxLength: LIMITS.shareKey })),
  jwt_token: Type.Optional(Type.String({ maxLength: LIMITS.jwt_token })),
  q: Type.Optional(Type.String({ maxLength: LIMITS.q })),
});

/**
 * No inline script and no other origin's: the pages' one script is Quire's own file (and
 * the mermaid module the instance names). The integrations installed on the site add
 * their scripts' origin (Quire's URL, or the site's hostname where the page is served
 * there) and the sources they declare.
 */
function pagePolicy(ctx: ServiceContext, scripts: Array<{ script: string; contentSecurityPolicy?: string }> | undefined): string {
  const policy: Policy = {
    'default-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'https:', 'http:'],
    'style-src': ["'unsafe-inline'"],
    'script-src': ["'self'", ...(ctx.config.mermaidUrl ? [new URL(ctx.config.mermaidUrl).origin] : [])],
    'frame-ancestors': ["'self'"],
  };
  if (!scripts?.length) return policyHeader(policy);
  return policyHeader(widenedPolicy(policy, scripts.flatMap((script) => [`script-src ${new URL(script.script).origin}`, script.contentSecurityPolicy ?? []].flat())));
}

/** Answers a page of a site; `cookiePath` scopes the keys a reader gives once. */
async function answerPage(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply, address: SiteAddress, path: string, query: ReaderQuery, cookiePath: string) {
  const givenShareKey = query.share_key ?? query.shareKey;
  const shareKey = givenShareKey ?? readCookie(request.headers.cookie, 'quire_share_key');
  const visitorAuthToken = query.jwt_token ?? readCookie(request.headers.cookie, 'quire_visitor_token');
  // The site's search is its root with ?q=, so that it can never hide a page's path.
  const answer = await readPublishedPage(ctx, address, path, { shareKey, visitorAuthToken }, query.q?.trim() || undefined);
  if ('redirect' in answer) return reply.redirect(answer.redirect, answer.status);
  if (answer.status === 200) {
    const cookies = [
      ...(givenShareKey ? [`quire_share_key=${encodeURIComponent(givenShareKey)}; Path=${cookiePath}; HttpOnly; SameSite=Lax`] : []),
      ...(query.jwt_token ? [`quire_visitor_token=${encodeURIComponent(query.jwt_token)}; Path=${cookiePath}; HttpOnly; SameSite=Lax`] : []),
    ];
    if (cookies.length) reply.header('set-cookie', cookies);
  }
  return reply
    .code(answer.status)
    .header('content-type', answer.contentType ?? 'text/html; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', pagePolicy(ctx, 'scripts' in answer ? answer.scripts : undefined))
    .header('referrer-policy', 'strict-origin-when-cross-origin')
    .headers(answer.cache ? { 'x-quire-cache': answer.cache } : {})
    .send(answer.body);
}

/** An integration's published script (routes/integrations/publicEndpoints.ts), which a site's pages at its hostname load from there. */
const PUBLISHED_SCRIPT_PATH = /^\/v1\/integrations\/[^/]+\/installations\/[^/]+\/sites\/[^/]+\/script\.js$/;

/** Could be a site's custom hostname (the API's pattern: two dots at least); an IPv4 address is not. */
const HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
const IPV4 = /^[0-9.]+$/;

const UNCLAIMED_FOR_MS = 5_000;
const UNCLAIMED_HOSTS = 1_000;

/**
 * Serves every GET at a site's custom hostname as that site's page (the reader's script
 * aside), before routing: on a docs hostname each path is the site's. Requests at Quire's
 * own host, or at a host no site claims, go on to the routes.
 */
export function siteHostnameHook(ctx: ServiceContext): onRequestAsyncHookHandler {
  const ownHost = new URL(ctx.config.publicUrl).host;
  // Hosts no site claims, for a few seconds: behind a proxy that passes its own Host, the
  // API's reads would otherwise each pay a lookup. A hostname given to a site meanwhile
  // is served once its entry ends.
  const unclaimed = new Map<string, number>();
  return async (request, reply) => {
    const hostname = request.hostname.toLowerCase();
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.host === ownHost || !HOSTNAME.test(hostname) || IPV4.test(hostname)) return;
    const [pathname] = request.url.split('?');
    if (pathname === READER_SCRIPT_PATH || PUBLISHED_SCRIPT_PATH.test(pathname)) return;
    const now = Date.now();
    if ((unclaimed.get(hostname) ?? 0) > now) return;
    const site = await siteAtHostname(ctx, hostname);
    if (!site) {
      if (unclaimed.size >= UNCLAIMED_HOSTS) unclaimed.clear();
      unclaimed.set(hostname, now + UNCLAIMED_FOR_MS);
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(pathname);
    } catch {
      path = '\0';
    }
    const query: ReaderQuery = {};
    for (const name of Object.keys(LIMITS) as Array<keyof typeof LIMITS>) {
      const value = (request.query as Record<string, unknown>)[name];
      if (typeof value === 'string' && value.length <= LIMITS[name]) query[name] = value;
    }
    // A proxy in front says which protocol the reader used; the page's links keep to it.
    const forwarded = String(request.headers['x-forwarded-proto'] ?? '').split(',')[0].trim();
    const protocol = forwarded === 'https' || forwarded === 'http' ? forwarded : request.protocol;
    return answerPage(ctx, request, reply, { siteId: site.id, origin: `${protocol}://${request.host}` }, path, query, '/');
  };
}

export const readerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  const serve = async (request: FastifyRequest<{ Params: { siteId: string; '*'?: string }; Querystring: ReaderQuery }>, reply: FastifyReply) =>
    // The router has decoded the path already.
    answerPage(ctx, request, reply, { siteId: request.params.siteId }, request.params['*'] ?? '', request.query, `/sites/${encodeURIComponent(request.params.siteId)}`);
  const schema = { hide: true, params: Type.Object({ siteId: Type.String({ maxLength: 100 }), '*': Type.Optional(Type.String({ maxLength: 2048 })) }), querystring: Query };
  app.get(READER_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(READER_SCRIPT),
  );
  // `/` is the app's (webApp/routes.ts).
  app.get('/sites', { schema: { hide: true } }, async (_request, reply) => {
    const answer = await readFrontPage(ctx);
    if ('redirect' in answer) return reply.redirect(answer.redirect, 302);
    return reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(answer.body);
  });
  app.get('/sites/:siteId', { schema }, serve);
  app.get('/sites/:siteId/*', { schema }, serve);
};
