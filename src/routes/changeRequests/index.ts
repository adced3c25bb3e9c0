// /v1/spaces/{spaceId}/change-requests: proposals to change a space's content.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createChangeRequest,
  getChangeRequest,
  listChangeRequests,
  patchChangeRequest,
  type ChangeRequestStatus,
} from '../../services/changeRequests.ts';
import {
  editChangeRequestContent,
  mergeChangeRequest,
  updateChangeRequestFromSpace,
  type ContentChangeInput,
  type Document,
} from '../../services/changeRequestContent.ts';
import { SAFE_LINK_SCHEMES } from '../../content/gitbook/safety.ts';
import { PAGE_SLUG_RULE } from '../../content/changes.ts';
import type { PageCover } from '../../content/pageFields.ts';
import { changeRequestPdfLink } from '../../services/pdf.ts';
import { IdParam, PageQuery, UserSchema, errors, listOf } from '../schemas.ts';
import { FileSchema } from '../content/index.ts';

const SpaceParams = Type.Object({ spaceId: IdParam('The unique id of the space') });
const ChangeRequestParams = Type.Object({
  spaceId: IdParam('The unique id of the space'),
  changeRequestId: IdParam('The id of the change request, or its number in the space'),
});
const Status = Type.Unsafe<ChangeRequestStatus>({ type: 'string', enum: ['draft', 'open', 'archived', 'merged'] });
const Subject = Type.String({ maxLength: 100, description: 'What the change request is about' });

const ChangeRequestSchema = Type.Object({
  object: Type.Literal('change-request'),
  id: Type.String(),
  number: Type.Integer({ description: 'Incremental number in the space, from 1' }),
  status: Type.String(),
  subject: Type.String(),
  createdBy: UserSchema,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  space: Type.String({ description: 'The id of its space' }),
  revision: Type.String({ description: 'The revision holding its content' }),
  revisionInitial: Type.String({ description: 'The space revision it started from' }),
  revisionMergedAncestor: Type.Optional(Type.String({ description: 'The space revision it last took content from' })),
  revisionMerged: Type.Optional(Type.String({ description: 'The space revision its merge produced' })),
  comments: Type.Number(),
  outdated: Type.Boolean({ description: 'True when the space moved on since' }),
  urls: Type.Object({ location: Type.String(), app: Type.String() }),
});

const CoverRef = {
  oneOf: [
    { type: 'object', required: ['kind', 'file'], properties: { kind: { type: 'string', enum: ['file'] }, file: { type: 'string', minLength: 1, maxLength: 100 } } },
    { type: 'object', required: ['kind', 'url'], properties: { kind: { type: 'string', enum: ['url'] }, url: { type: 'string', maxLength: 2048, pattern: '^https?://' } } },
  ],
};
/** GitBook's layout options that show or hide a part of the page. */
const LAYOUT_SWITCHES = ['cover', 'title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions', 'anchors'] as const;
const PageFields = {
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100, format: 'page-slug', description: `The page's name in its parent's path: ${PAGE_SLUG_RULE}` })),
  emoji: Type.Optional(Type.String({ maxLength: 50, format: 'emoji', description: 'An emoji ("🎉" or "1f389")' })),
  icon: Type.Optional(Type.String({ maxLength: 50 })),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  hidden: Type.Optional(Type.Boolean()),
  noIndex: Type.Optional(Type.Boolean()),
  noRobotsIndex: Type.Optional(Type.Boolean()),
  cover: Type.Optional(
    Type.Unsafe<PageCover | null>({
      type: 'object',
      nullable: true,
      additionalProperties: false,
      required: ['ref'],
      properties: { ref: CoverRef, refDark: CoverRef, yPos: { type: 'number' }, height: { type: 'number', minimum: 10, maximum: 700 } },
      description: "GitBook's page cover: an image of the change request's files ({kind: 'file', file}) or a URL; null removes it",
    }),
  ),
  layout: Type.Optional(
    Type.Object(
      {
        width: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['default', 'wide'] })),
        coverSize: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['hero', 'full', 'background'] })),
        coverMask: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['none', 'radial'] })),
        ...Object.fromEntries(LAYOUT_SWITCHES.map((option) => [option, Type.Optional(Type.Boolean())])),
      },
      { additionalProperties: false, description: "GitBook's layout options of a document page (which parts show); those left out take GitBook's defaults" },
    ),
  ),
  condition: Type.Optional(
    Type.String({ maxLength: 1000, description: "Adaptive content: readers of published content are shown the page when their claims meet it (visitor.claims.plan == \"pro\"); \"\" removes it" }),
  ),
};
const MAX_MARKDOWN = 1_000_000;
/** Largest body of a content batch: 20 files of 1 MB in base64, with room for markdown. */
const CONTENT_BODY_LIMIT = 30 * 1024 * 1024;
const DocumentSchema = Type.Unsafe<Document>({
  anyOf: [
    { type: 'string', maxLength: MAX_MARKDOWN },
    { type: 'object', properties: { markdown: { type: 'string', maxLength: MAX_MARKDOWN } }, required: ['markdown'] },
    {
      type: 'object',
      properties: { document: { type: 'object', properties: { object: { type: 'string', enum: ['document'] }, nodes: { type: 'array' } }, required: ['object', 'nodes'] } },
      required: ['document'],
    },
  ],
  description:
    'Markdown, as a string or {markdown} (a leading "# Heading" becomes the title), or GitBook\'s JSONDocument as {document}; ' +
    'markdown and documents may use every GitBook block',
});
const ReusableTitle = Type.String({ minLength: 1, maxLength: 255, description: "The reusable content's title; its document's front matter title wins" });
const ReusableDocument = Type.Unsafe<Document>({ ...DocumentSchema, description: "Its blocks: markdown as a string or {markdown} (front matter may name the title; a leading heading stays content), or GitBook's JSONDocument as {document}" });
const ContentChange = Type.Unsafe<ContentChangeInput>({
  type: 'object',
  required: ['operation'],
  properties: { operation: { type: 'string', enum: ['insert_page', 'update_page', 'delete_page', 'revert_page', 'insert_files', 'insert_reusable_content', 'update_reusable_content', 'delete_reusable_content'] } },
  discriminator: { propertyName: 'operation' },
  oneOf: [
    Type.Object({
      operation: Type.Literal('insert_page'),
      type: Type.Optional(
        Type.Unsafe<'document' | 'group' | 'link'>({ type: 'string', enum: ['document', 'group', 'link'], description: 'document (default), group or link' }),
      ),
      href: Type.Optional(
        Type.String({ minLength: 1, maxLength: 2048, description: `Where a link page leads: a relative path, or a URL of ${SAFE_LINK_SCHEMES.join(', ')}` }),
      ),
      document: Type.Optional(DocumentSchema),
      into: Type.Optional(IdParam('Parent page id or batch ref; omitted: the top level')),
      at: Type.Optional(Type.Integer({ minimum: 0 })),
      ref: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'A name unique in the batch: documents of the batch link to the page as ./<ref>.md, changes name it as into or page' })),
      ...PageFields,
    }),
    Type.Object({
      operation: Type.Literal('update_page'),
      page: IdParam('The page (or a batch ref)'),
      document: Type.Optional(DocumentSchema),
      href: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Where a link page leads now' })),
      into: Type.Optional(Type.Unsafe<string | null>({ type: 'string', maxLength: 100, nullable: true })),
      at: Type.Optional(Type.Integer({ minimum: 0 })),
      ...PageFields,
    }),
    Type.Object({ operation: Type.Literal('delete_page'), page: IdParam('The page (or a batch ref)') }),
    Type.Object({
      operation: Type.Literal('insert_files'),
      files: Type.Array(
        Type.Object({
          name: Type.String({ minLength: 1, maxLength: 255 }),
          contentType: Type.Optional(Type.String({ minLength: 3, maxLength: 255, pattern: '^[\\w.+-]+/[\\w.+-]+$', description: 'A media type such as image/png' })),
          base64: Type.Optional(Type.String({ maxLength: 1_400_000, description: 'The bytes, base64 (at most 1 MB decoded); or give url' })),
          url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'Where Quire fetches the bytes (at most 1 MB), through its URL-safety rules; or give base64' })),
          ref: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'A name unique in the batch, such as logo.png: documents of the batch link to the file as ./<ref>' })),
        }),
        { minItems: 1, maxItems: 20 },
      ),
    }),
    Type.Object({
      operation: Type.Literal('revert_page'),
      page: IdParam('The page'),
      revision: Type.Optional(IdParam("A revision of the space; omitted: the change request's base")),
    }),
    Type.Object(
      { operation: Type.Literal('insert_reusable_content'), title: ReusableTitle, document: ReusableDocument },
      { description: "Quire's: a new reusable content of the space, for pages to include" },
    ),
    Type.Object(
      {
        operation: Type.Literal('update_reusable_content'),
        reusableContent: IdParam('The reusable content'),
        title: Type.Optional(ReusableTitle),
        document: Type.Optional(ReusableDocument),
      },
      { description: "Quire's: a reusable content's title or blocks, shown anew in every page that includes it" },
    ),
    Type.Object(
      { operation: Type.Literal('delete_reusable_content'), reusableContent: IdParam('The reusable content') },
      { description: "Quire's: a reusable content no page includes any longer (refused, naming them, while pages do)" },
    ),
  ],
});
const PageReference = Type.Object({ object: Type.Literal('page'), id: Type.String(), urls: Type.Object({ location: Type.String({ description: "Where to read the page's content in the change request" }) }) });
const ReusableContentReference = Type.Object({
  object: Type.Literal('reusable-content'),
  id: Type.String(),
  urls: Type.Object({ location: Type.String({ description: "Where to read the reusable content in the change request" }) }),
});
const ContentUpdateSchema = Type.Object({
  changeRequest: ChangeRequestSchema,
  changes: Type.Array(
    Type.Union([
      Type.Object({ object: Type.Literal('created_page'), ref: Type.Optional(Type.String({ description: 'The ref the batch gave it' })), page: PageReference }),
      Type.Object({ object: Type.Literal('updated_page'), page: PageReference }),
      Type.Object({ object: Type.Literal('deleted_page'), page: Type.String({ description: 'The id of the page removed' }) }),
      Type.Object({ object: Type.Union([Type.Literal('created_reusable_content'), Type.Literal('updated_reusable_content')]), reusableContent: ReusableContentReference }),
      Type.Object({ object: Type.Literal('deleted_reusable_content'), reusableContent: Type.String({ description: 'The id of the reusable content removed' }) }),
    ]),
    { description: 'Each page the batch touched, once, in the order it was first touched; then each reusable content it wrote (Quire\'s)' },
  ),
  insertedFiles: Type.Array(FileSchema, { description: 'The files the batch inserted, in order' }),
});
const LineRange = Type.Object({ start: Type.Integer(), count: Type.Integer() });
const MergeAnswer = (result: string) =>
  Type.Object({
    revision: Type.String({ description: 'The resulting revision, or the unchanged one on conflicts' }),
    result: Type.Unsafe<string>({ type: 'string', enum: [result, 'conflicts'] }),
    conflicts: Type.Optional(
      Type.Array(
        Type.Object({
          page: Type.Optional(Type.Object({ id: Type.String(), path: Type.String(), title: Type.String() }, { description: 'The page in conflict' })),
          reusableContent: Type.Optional(Type.Object({ id: Type.String(), title: Type.String() }, { description: 'Or the reusable content in conflict' })),
          kind: Type.String({ description: 'content, metadata, edited-and-deleted, moved-to-two-places, added-twice, parent-deleted, move-cycle or slug; for a reusable content, content, title or edited-and-deleted' }),
          field: Type.Optional(Type.String()),
          regions: Type.Optional(Type.Array(Type.Object({ ours: LineRange, base: LineRange, theirs: LineRange }))),
        }),
        { description: 'Present when result is "conflicts": what to resolve' },
      ),
    ),
  });

export const changeRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/spaces/:spaceId/change-requests',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'listChangeRequestsForSpace',
        summary: 'List change requests, newest first (status "open" unless asked)',
        params: SpaceParams,
        querystring: Type.Object({
          ...PageQuery,
          status: Type.Optional(Status),
          contributor: Type.Optional(IdParam('Only change requests by this user')),
        }),
        response: { 200: listOf(ChangeRequestSchema), ...errors(404) },
      },
    },
    (request) => listChangeRequests(ctx, request.actor, request.params.spaceId, request.query),
  );

  app.post(
    '/spaces/:spaceId/change-requests',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'createChangeRequest',
        summary: "Open a change request on the space's current content (editors)",
        params: SpaceParams,
        body: Type.Optional(Type.Object({ subject: Type.Optional(Subject) })),
        response: { 201: ChangeRequestSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const changeRequest = await createChangeRequest(ctx, request.actor, request.params.spaceId, request.body ?? {});
      return reply.code(201).header('location', changeRequest.urls.location).send(changeRequest);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'getChangeRequestById',
        summary: 'Get a change request by id or number',
        params: ChangeRequestParams,
        response: { 200: ChangeRequestSchema, ...errors(404) },
      },
    },
    (request) => getChangeRequest(ctx, request.actor, request.params.spaceId, request.params.changeRequestId),
  );

  app.patch(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'updateChangeRequestById',
        summary: 'Change the subject or status (draft, open, archived) of a change request',
        params: ChangeRequestParams,
        body: Type.Object({ subject: Type.Optional(Subject), status: Type.Optional(Status) }),
        response: { 200: ChangeRequestSchema, ...errors(403, 404, 409) },
      },
    },
    (request) =>
      patchChangeRequest(ctx, request.actor, request.params.spaceId, request.params.changeRequestId, request.body),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      // Up to 20 files of 1 MB each arrive base64-encoded in one batch.
      bodyLimit: Math.max(ctx.config.bodyLimit ?? 0, CONTENT_BODY_LIMIT),
      schema: {
        tags: ['change-requests'],
        operationId: 'updateChangeRequestContent',
        summary: 'Apply a batch of page changes: all or none, making one new revision',
        params: ChangeRequestParams,
        querystring: Type.Object({
          compat: Type.Optional(Type.Boolean({ default: true, description: 'true (default): the change request; false: the change request, each page the batch touched and the files it inserted' })),
        }),
        body: Type.Object({ changes: Type.Array(ContentChange, { minItems: 1, maxItems: 50 }) }),
        response: { 200: Type.Union([ChangeRequestSchema, ContentUpdateSchema]), ...errors(403, 404, 409) },
      },
    },
    async (request) => {
      const update = await editChangeRequestContent(ctx, request.actor, request.params.spaceId, request.params.changeRequestId, request.body.changes);
      return request.query.compat === false ? update : update.changeRequest;
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/merge',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'mergeChangeRequest',
        summary: 'Publish a change request into its space; on conflicts nothing changes and they are listed',
        params: ChangeRequestParams,
        response: { 200: MergeAnswer('merge'), ...errors(403, 404, 409) },
      },
    },
    (request) => mergeChangeRequest(ctx, request.actor, request.params.spaceId, request.params.changeRequestId),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/pdf',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'getChangeRequestPDF',
        summary: "A link to a PDF of the change request's pages (valid for an hour)",
        params: ChangeRequestParams,
        querystring: Type.Object({
          page: Type.Optional(IdParam('Start from this page (with its sub-pages)')),
          only: Type.Optional(Type.Boolean({ description: 'Only the given page, without its sub-pages' })),
        }),
        response: { 200: Type.Object({ url: Type.String() }), ...errors(404) },
      },
    },
    (request) => changeRequestPdfLink(ctx, request.actor, request.params.spaceId, request.params.changeRequestId, request.query),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/update',
    {
      schema: {
        tags: ['change-requests'],
        operationId: 'updateChangeRequest',
        summary: "Bring the space's current content into a change request; on conflicts nothing changes",
        params: ChangeRequestParams,
        response: { 200: MergeAnswer('update'), ...errors(403, 404, 409) },
      },
    },
    (request) => updateChangeRequestFromSpace(ctx, request.actor, request.params.spaceId, request.params.changeRequestId),
  );
};
