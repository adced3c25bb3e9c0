// Full-text search: GET /v1/orgs/{organizationId}/search (spaces → pages → sections),
// GET /v1/spaces/{spaceId}/search (pages → sections) over current revisions, and
// POST /v1/orgs/{organizationId}/sites/{siteId}/search over a site's published content.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { searchOrganization, searchSite, searchSpace } from '../../services/search.ts';
import { IdParam, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';
import { SiteParams } from '../sites/schemas.ts';

const Urls = Type.Object({ app: Type.String({ format: 'uri', description: 'Where it opens in the app' }) });

const SectionResult = Type.Object({
  id: Type.String({ description: "The heading's anchor, or the page id for the text before the first heading" }),
  title: Type.String({ description: "The heading's text" }),
  path: Type.String({ description: 'The page path with the anchor' }),
  score: Type.Number({ minimum: 0, description: 'Relevance: higher is better' }),
  resultType: Type.Unsafe<'page' | 'section'>({ type: 'string', enum: ['page', 'section'], description: "page: the text under the page's title; section: under a heading" }),
  body: Type.String({ description: 'An excerpt around the match' }),
  urls: Urls,
});

const PageResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String({ description: "The page's description, empty when it has none" }),
  path: Type.String(),
  score: Type.Number({ minimum: 0, description: "Relevance: its best section's" }),
  rank: Type.Integer({ minimum: 1, description: 'Position among every page found, best first' }),
  resultType: Type.Unsafe<'page' | 'section'>({ type: 'string', enum: ['page', 'section'] }),
  ancestors: Type.Array(Type.Object({ title: Type.String() }), { description: 'The pages above it, from the top' }),
  sections: Type.Array(SectionResult),
  urls: Urls,
});

const SpaceResult = Type.Object({
  type: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  score: Type.Number({ minimum: 0, description: "Relevance: its best page's" }),
  pages: Type.Array(PageResult),
  urls: Urls,
});

const SiteSpaceId = Type.String({ minLength: 1, maxLength: 100 });
const SiteSearchBody = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 512, description: 'Words to find, as in the organization search' }),
  scope: Type.Optional(
    Type.Union([
      Type.Object({
        mode: Type.Literal('default'),
        currentSiteSpace: Type.Optional(SiteSpaceId),
        restrictTo: Type.Optional(Type.Unsafe<'currentSiteSpace' | 'otherSiteSpaces'>({ type: 'string', enum: ['currentSiteSpace', 'otherSiteSpaces'] })),
      }),
      Type.Object({ mode: Type.Literal('specific'), siteSpaceIds: Type.Array(SiteSpaceId, { minItems: 1, maxItems: 100 }) }),
      Type.Object({ mode: Type.Literal('all') }),
    ], { description: "default: each section's default content and the current site space; specific: the site spaces named; all: every site space" }),
  ),
  mode: Type.Optional(Type.Unsafe<'specific' | 'current' | 'all'>({ type: 'string', enum: ['specific', 'current', 'all'], description: 'Deprecated by GitBook: use scope' })),
  siteSpaceIds: Type.Optional(Type.Array(SiteSpaceId, { maxItems: 100 })),
  siteSpaceId: Type.Optional(SiteSpaceId),
});

const SearchQuery = Type.Object({
  query: Type.String({
    minLength: 1,
    maxLength: 512,
    description: 'Words to find (all of them; the last also as a prefix); "quoted words" as a phrase',
  }),
  ...PageQuery,
});

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/search',
    {
      schema: {
        tags: ['search'],
        operationId: 'searchOrganizationContent',
        summary: "Search the current content of the organization's spaces the caller can read",
        params: OrganizationParams,
        querystring: SearchQuery,
        response: { 200: listOf(SpaceResult), ...errors(404) },
      },
    },
    (request) => searchOrganization(ctx, request.actor, request.params.organizationId, request.query.query, request.query),
  );

  app.get(
    '/spaces/:spaceId/search',
    {
      schema: {
        tags: ['search'],
        operationId: 'searchSpaceContent',
        summary: "Search the space's current content",
        params: Type.Object({ spaceId: IdParam('The space') }),
        querystring: SearchQuery,
        response: { 200: listOf(PageResult), ...errors(404) },
      },
    },
    (request) => searchSpace(ctx, request.actor, request.params.spaceId, request.query.query, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/search',
    {
      config: { siteToken: true },
      schema: {
        tags: ['search'],
        operationId: 'searchSiteContent',
        summary: "Search a site's published content as its reader sees it",
        params: SiteParams,
        querystring: Type.Object(PageQuery),
        body: SiteSearchBody,
        response: { 200: listOf(SpaceResult), ...errors(404) },
      },
    },
    (request) => searchSite(ctx, request.actor, request.params.organizationId, request.params.siteId, request.body, request.query),
  );
};
