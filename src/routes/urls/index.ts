// POST /v1/urls/published: the published content at a URL, and a site token to read it
// with, as GitBook's renderer asks before rendering a page. No API token is needed:
// what a URL shows is decided by the site's own rule (services/publishedUrls.ts).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { resolvePublishedUrl } from '../../services/publishedUrls.ts';
import { errors } from '../schemas.ts';
import { CACHE_TAG_HEADER } from '../../plugins/cacheTags.ts';

const Lookup = Type.Union([
  Type.Object({
    target: Type.Literal('content'),
    redirect: Type.String({ description: 'Where the URL lives now, such as under the site basename' }),
  }),
  Type.Object({
    target: Type.Literal('external'),
    site: Type.String(),
    redirect: Type.String({ description: "A visitor-auth site's fallbackURL, with the page asked for as `location`: for a visitor without a valid visitor token, when asked with redirectOnError" }),
  }),
  Type.Object({
    site: Type.String(),
    siteSection: Type.Optional(Type.String()),
    siteSpace: Type.String(),
    space: Type.String(),
    organization: Type.String(),
    revision: Type.String({ description: "The space's current revision: caches keyed on it never serve stale pages" }),
    shareKey: Type.Optional(Type.String()),
    pathname: Type.String({ description: 'The page path after basePath' }),
    basePath: Type.String({ description: "The URL's path up to the site space, with leading and trailing slashes" }),
    siteBasePath: Type.String({ description: "The URL's path up to the site's root" }),
    canonicalUrl: Type.String(),
    complete: Type.Boolean({ description: 'No further segment of a longer URL could name a section or a site space' }),
    apiToken: Type.String({ description: "A site token (JWT, GitBook's SiteAPIToken) reading this site's published content and nothing else" }),
  }),
]);

export const publishedUrlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  app.post(
    '/urls/published',
    {
      schema: {
        tags: ['sites'],
        operationId: 'resolvePublishedContentByUrl',
        summary: 'The published content a URL shows: site, section, site space, space and page path, with a token to read it',
        security: [],
        body: Type.Object(
          {
            url: Type.String({ minLength: 1, maxLength: 2048, description: "A URL of a published site: its hostname's, or Quire's own /sites/<siteId>/…" }),
            redirectOnError: Type.Optional(Type.Boolean({ description: "true: a visitor-auth site's visitor without a valid token is answered its fallbackURL (target external) rather than 401" })),
            visitor: Type.Optional(
              Type.Object(
                {
                  jwtToken: Type.Optional(Type.String({ maxLength: 8192, description: "A visitor token signed with the site's key (visitor-auth sites)" })),
                  unsignedClaims: Type.Optional(Type.Object({}, { additionalProperties: true })),
                  type: Type.Optional(Type.Unsafe<'human' | 'agent'>({ type: 'string', enum: ['human', 'agent'] })),
                },
                { additionalProperties: true },
              ),
            ),
          },
          // The renderer adds fields of its own (cacheBust) to miss its caches.
          { additionalProperties: true },
        ),
        response: { 200: Lookup, ...errors(404) },
      },
    },
    async (request, reply) => {
      const resolved = await resolvePublishedUrl(ctx, request.body);
      if ('space' in resolved) reply.header(CACHE_TAG_HEADER, `site:${resolved.site},space:${resolved.space}`);
      return resolved;
    },
  );
};
