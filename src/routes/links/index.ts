// Links and backlinks: GET /v1/spaces/{spaceId}/links (the current revision), and in
// a change request, a page's links and a file's backlinks.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listChangeRequestFileBacklinks, listChangeRequestPageLinks, listSpaceLinks } from '../../services/links.ts';
import { IdParam, PageQuery, errors, listOf } from '../schemas.ts';

const Status = Type.Unsafe<'ok' | 'broken' | 'in-app'>({
  type: 'string',
  enum: ['ok', 'broken', 'in-app'],
  description: 'ok: the target exists or answered; broken: it does not, or did not answer; in-app: a URL into Quire itself',
});

/**
 * GitBook's ContentLocation: where a link is, or what it points at, named by objects as
 * the caller sees them (organization, space, the revision or change request read as
 * versionContext, the page or file); a URL; a page or file the revision lacks by its id.
 */
const ContentLocation = Type.Object(
  {
    kind: Type.Unsafe<'page' | 'file' | 'space' | 'url'>({ type: 'string', enum: ['page', 'file', 'space', 'url'] }),
    organization: Type.Optional(Type.Unknown({ description: 'The organization' })),
    space: Type.Optional(Type.Unknown({ description: 'The space' })),
    versionContext: Type.Optional(Type.Unknown({ description: '{type: "revision", revision} or, in a change request, {type: "changeRequest", changeRequest}' })),
    page: Type.Optional(Type.Unknown({ description: 'The page' })),
    file: Type.Optional(Type.Unknown({ description: 'The file' })),
    internalLocation: Type.Optional(Type.Object({ type: Type.Literal('anchor'), anchor: Type.String() })),
    url: Type.Optional(Type.String({ description: 'A URL; or /pages/<id>, /files/<id> or a space URL that the revision or the caller lacks' })),
  },
  { additionalProperties: false },
);

const LinkItem = Type.Object({
  status: Status,
  relation: Type.Unsafe<'reference' | 'dependsOn'>({ type: 'string', enum: ['reference', 'dependsOn'], description: 'dependsOn for images and embedded files' }),
  targetReference: ContentLocation,
  locationReferences: Type.Array(ContentLocation, { description: 'The pages where the link is written' }),
});

const Stats = Type.Object({
  total: Type.Number({ description: 'How many distinct link targets' }),
  broken: Type.Object({
    total: Type.Number({ description: 'How many of them are broken' }),
    changeRequest: Type.Number({ description: "Broken targets in the space's open change requests (for a change request's page: in that page)" }),
  }),
});

const spaceId = IdParam('The unique id of the space');
const changeRequestId = IdParam('The id or number of the change request');

export const linkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/spaces/:spaceId/links',
    {
      schema: {
        tags: ['content'],
        operationId: 'listContentLinks',
        summary: "Every link in the space's current content, one item per target, with its status",
        params: Type.Object({ spaceId }),
        querystring: Type.Object({ ...PageQuery, status: Type.Optional(Status) }),
        response: { 200: listOf(LinkItem, { stats: Stats }), ...errors(404) },
      },
    },
    (request) => listSpaceLinks(ctx, request.actor, request.params.spaceId, request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links',
    {
      schema: {
        tags: ['content'],
        operationId: 'listChangeRequestPageLinks',
        summary: "The links in one page of a change request's content",
        params: Type.Object({ spaceId, changeRequestId, pageId: IdParam('The unique id of the page') }),
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(LinkItem, { stats: Stats }), ...errors(404) },
      },
    },
    (request) =>
      listChangeRequestPageLinks(ctx, request.actor, request.params.spaceId, request.params.changeRequestId, request.params.pageId, request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks',
    {
      schema: {
        tags: ['content'],
        operationId: 'listChangeRequestFileBacklinks',
        summary: "The pages of a change request's content that link to or show a file",
        params: Type.Object({ spaceId, changeRequestId, fileId: IdParam('The unique id of the file') }),
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(ContentLocation), ...errors(404) },
      },
    },
    (request) =>
      listChangeRequestFileBacklinks(ctx, request.actor, request.params.spaceId, request.params.changeRequestId, request.params.fileId, request.query),
  );
};
