// The published sites, served to readers at their urls.published (/sites/<siteId>/…),
// and the instance's front page listing the public ones.
// A share-link key given once as ?share_key= (or GitBook's shareKey) is kept in a
// cookie for the site's path; a visitor token as ?jwt_token= likewise. Hidden from the
// API document: these are pages, not operations.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { READER_SCRIPT_PATH } from './layout.ts';
import { readFrontPage, readPublishedPage } from './site.ts';

/** The pages' one script (copy buttons), served from Quire's own origin so the pages' policy allows no other. */
const READER_SCRIPT = readFileSync(new URL('./assets/reader.js', import.meta.url), 'utf8');


const Query = Type.Object({
  share_key: Type.Optional(Type.String({ maxLength: 200 })),
  shareKey: Type.Optional(Type.String({ maxLength: 200 })),
  jwt_token: Type.Optional(Type.String({ maxLength: 8192 })),
  q: Type.Optional(Type.String({ maxLength: 200 })),
});

/** A cookie's value from the request's Cookie header. */
function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      // A cookie that is not percent-encoded as Quire writes it holds no key.
      return undefined;
    }
  }
  return undefined;
}

export const readerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  const serve = async (request: FastifyRequest<{ Params: { siteId: string; '*'?: string }; Querystring: { share_key?: string; shareKey?: string; jwt_token?: string; q?: string } }>, reply: FastifyReply) => {
    const { siteId } = request.params;
    const cookiePath = `/sites/${encodeURIComponent(siteId)}`;
    const givenShareKey = request.query.share_key ?? request.query.shareKey;
    const shareKey = givenShareKey ?? cookie(request, 'quire_share_key');
    const visitorAuthToken = request.query.jwt_token ?? cookie(request, 'quire_visitor_token');
    // The site's search is its root with ?q=, so that it can never hide a page's path.
    const answer = await readPublishedPage(ctx, siteId, request.params['*'] ?? '', { shareKey, visitorAuthToken }, request.query.q?.trim() || undefined);
    if (answer.status === 200) {
      const cookies = [
        ...(givenShareKey ? [`quire_share_key=${encodeURIComponent(givenShareKey)}; Path=${cookiePath}; HttpOnly; SameSite=Lax`] : []),
        ...(request.query.jwt_token ? [`quire_visitor_token=${encodeURIComponent(request.query.jwt_token)}; Path=${cookiePath}; HttpOnly; SameSite=Lax`] : []),
      ];
      if (cookies.length) reply.header('set-cookie', cookies);
    }
    return reply
      .code(answer.status)
      .header('content-type', answer.contentType ?? 'text/html; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      // No inline script and no other origin's: the one script is Quire's own file.
      .header('content-security-policy', "default-src 'self'; img-src 'self' data: https: http:; style-src 'unsafe-inline'; script-src 'self'; frame-ancestors 'self'")
      .header('referrer-policy', 'strict-origin-when-cross-origin')
      .send(answer.body);
  };
  const schema = { hide: true, params: Type.Object({ siteId: Type.String({ maxLength: 100 }), '*': Type.Optional(Type.String({ maxLength: 2048 })) }), querystring: Query };
  app.get(READER_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(READER_SCRIPT),
  );
  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    const answer = await readFrontPage(ctx);
    if ('redirect' in answer) return reply.redirect(answer.redirect, 302);
    return reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(answer.body);
  });
  app.get('/sites/:siteId', { schema }, serve);
  app.get('/sites/:siteId/*', { schema }, serve);
};
