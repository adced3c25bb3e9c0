// Full-text search: GET /v1/orgs/{organizationId}/search (spaces → pages → sections)
// and GET /v1/spaces/{spaceId}/search (pages → sections) over current revisions.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { searchOrganization, searchSpace } from '../../services/search.ts';
import { IdParam, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';

const Urls = Type.Object({ app: Type.String({ format: 'uri', description: 'Where it opens in the app' }) });

const SectionResult = Type.Object({
  id: Type.String({ description: "The heading's anchor, or the page id for the text before the first heading" }),
  title: Type.String({ description: "The heading's text" }),
  path: Type.String({ description: 'The page path with the anchor' }),
  body: Type.String({ description: 'An excerpt around the match' }),
  urls: Urls,
});

const PageResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  path: Type.String(),
  sections: Type.Array(SectionResult),
  urls: Urls,
});

const SpaceResult = Type.Object({ id: Type.String(), title: Type.String(), pages: Type.Array(PageResult), urls: Urls });

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
};
