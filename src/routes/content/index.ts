// Reading content: /v1/spaces/{spaceId}/content…, /revisions/{revisionId}…, and a
// change request's /content…. Pages come nested; one page comes with its markdown.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  getDocumentById,
  getFile,
  getPage,
  getPageByPath,
  getPageDocument,
  getPageMetaLinks,
  getPages,
  getReusableContent,
  getReusableContentDocument,
  getRevisionContent,
  listFiles,
  type RevisionSelector,
} from '../../services/contentReads.ts';
import type { PageContentForm, PageFormat } from '../../services/revisionContent.ts';
import { downloadFile } from '../../services/revisions.ts';
import { getEmbed } from '../../services/embeds.ts';
import { renderPdfLink } from '../../services/pdf.ts';
import type { PageRequest } from '../../lib/pageRequest.ts';
import { NotFound } from '../../errors.ts';
import type { PresentedPage } from '../../presenters/page.ts';
import { IdParam, PageQuery, errors, listOf } from '../schemas.ts';

const Nested = Type.Object({}, { additionalProperties: true, description: 'A page, with its own sub-pages' });

const PageTagSchema = Type.Object({
  tag: Type.Object(
    {
      kind: Type.Literal('tag'),
      tag: Type.String({ description: "The tag's slug, as the revision's `tags` name it" }),
    },
    { description: 'A reference to a tag of the revision' },
  ),
});

const TagSchema = Type.Object({
  slug: Type.String({ description: 'How pages name the tag; never changes' }),
  label: Type.String({ description: 'What the tag shows' }),
  color: Type.String({ description: "One of GitBook's text colours (`default` where none is set)" }),
  icon: Type.Optional(Type.String({ description: 'Its icon, where it has one' })),
});

export const PageSchema = Type.Unsafe<PresentedPage>(Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    type: Type.String({ description: 'document, group or link' }),
    slug: Type.String(),
    path: Type.String({ description: 'Slugs from the top level, joined by /' }),
    markdown: Type.Optional(Type.String()),
    document: Type.Optional(Type.Object({ object: Type.Literal('document') }, { additionalProperties: true })),
    emoji: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    hidden: Type.Optional(Type.Boolean()),
    noIndex: Type.Optional(Type.Boolean()),
    noRobotsIndex: Type.Optional(Type.Boolean()),
    condition: Type.Optional(Type.String({ description: "Adaptive content: the visitor claims' condition under which readers of published content are shown the page. Members only." })),
    createdAt: Type.Optional(Type.String({ format: 'date-time' })),
    updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
    urls: Type.Object({ app: Type.String() }),
    tags: Type.Optional(Type.Array(PageTagSchema, { description: "Document pages: the tags of the revision's library the page has (Git Sync: its front matter's `tags`)" })),
    pages: Type.Array(Nested),
  },
  { additionalProperties: true },
));

export const FileSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  size: Type.Number({ description: 'Bytes' }),
  dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() }, { description: 'Images only' })),
  downloadURL: Type.String({ description: 'A signed link to the bytes: for an hour, or for readers of published content the same link all week, valid a week beyond' }),
  git: Type.Optional(Type.Object({ oid: Type.String(), path: Type.String() }, { description: 'Where the file sits in the commit the revision matches (Git Sync)' })),
});

const ReusableContentSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  document: Type.String({ description: 'The id of its document: the hash of its markdown, as a page\'s documentId is' }),
  git: Type.Optional(Type.Object({ oid: Type.String(), path: Type.String() }, { description: 'Where its file sits in the commit the revision matches (Git Sync)' })),
});

const RevisionSchema = Type.Object({
  object: Type.Literal('revision'),
  id: Type.String(),
  parents: Type.Array(Type.String()),
  pages: Type.Array(PageSchema),
  files: Type.Array(FileSchema),
  reusableContents: Type.Array(ReusableContentSchema),
  tags: Type.Array(TagSchema, { description: "The revision's tag library, which its pages' tags name (Git Sync: .gitbook/tags.yaml)" }),
  createdAt: Type.String({ format: 'date-time' }),
  type: Type.String(),
  git: Type.Optional(
    Type.Object(
      {
        oid: Type.String(),
        message: Type.String(),
        createdByGitBook: Type.Boolean(),
        createdByService: Type.Boolean(),
        url: Type.String(),
        ref: Type.String(),
        author: Type.Optional(
          Type.Object(
            { name: Type.String(), email: Type.String() },
            { description: "Who wrote the commit, as git names them (Quire); members only: a published site's readers are not shown it" },
          ),
        ),
      },
      { description: 'The commit the revision matches (Git Sync)' },
    ),
  ),
  urls: Type.Object({ app: Type.String() }),
});

const ContentQuery = {
  metadata: Type.Optional(Type.Boolean({ description: 'false leaves out the git metadata (Git Sync): where pages and files sit in the commit the revision matches' })),
  computed: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility: Quire has no computed pages' })),
};
const FormatQuery = {
  format: Type.Optional(
    Type.Unsafe<'markdown' | 'document'>({
      type: 'string',
      enum: ['markdown', 'document'],
      description: "markdown (default): the page's markdown; document: GitBook's JSON document derived from it",
    }),
  ),
};

/** GitBook's renderer asks for documents "evaluated" and "dereferenced". */
const DocumentQuery = {
  evaluated: Type.Optional(
    Type.Union([Type.Boolean(), Type.Literal('deterministic-only')], {
      description: "Accepted for compatibility: Quire decides conditional blocks for every reader of published content by the reader's claims, and for no member",
    }),
  ),
  dereferenced: Type.Optional(
    Type.Union([Type.Boolean(), Type.Literal('reusable-contents')], {
      description: "true or reusable-contents: the blocks of each reusable content a page includes in place of the include (a reusable content's own document keeps its includes)",
    }),
  ),
};

/** The page's content as the query asks for it. */
function pageContentFormOf(query: unknown): PageContentForm {
  const { format, dereferenced } = query as { format?: PageFormat; dereferenced?: boolean | string };
  return { format, dereferenced: dereferenced === true || dereferenced === 'reusable-contents' };
}

const JsonDocument = Type.Object({ object: Type.Literal('document'), data: Type.Object({}, { additionalProperties: true }), nodes: Type.Array(Type.Object({}, { additionalProperties: true })) }, { additionalProperties: true });

const ContentRefTarget = Type.Object({ kind: Type.String() }, { additionalProperties: true });
const MetaLinks = Type.Object({ canonical: Type.Optional(ContentRefTarget), alternates: Type.Array(ContentRefTarget) });

/**
 * Sends the schema's answer as JSON text the service made and keeps as sent (a
 * revision's page list, a document with its links resolved, a page with its markdown
 * or document): services/revisionContent.ts. It goes out as it is.
 */
function sendJsonText(reply: FastifyReply, json: string | Buffer) {
  return reply.type('application/json; charset=utf-8').send(json);
}

const metadataOf = (query: unknown) => ({ metadata: (query as { metadata?: boolean }).metadata !== false });

const spaceId = IdParam('The unique id of the space');
const pageId = IdParam('The unique id of the page');

/** The three readings of a revision's content, mounted under one prefix. */
function contentRoutes(
  prefix: string,
  params: Record<string, TSchema>,
  operationPrefix: string,
  selector: (params: Record<string, string>) => RevisionSelector,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const { ctx } = app;
    app.get(
      prefix,
      {
        config: { siteToken: true },
        schema: {
          tags: ['content'],
          operationId: `get${operationPrefix}`,
          summary: 'A revision: its nested pages and files',
          params: Type.Object(params),
          querystring: Type.Object(ContentQuery),
          response: { 200: RevisionSchema, ...errors(404) },
        },
      },
      async (request, reply) =>
        sendJsonText(reply, await getRevisionContent(ctx, request.actor, (request.params as Record<string, string>).spaceId, { ...selector(request.params as Record<string, string>), ...metadataOf(request.query) })),
    );
    app.get(
      `${prefix}/pages`,
      {
        config: { siteToken: true },
        schema: {
          tags: ['content'],
          operationId: `list${operationPrefix}Pages`,
          summary: 'The pages of a revision, nested',
          params: Type.Object(params),
          querystring: Type.Object(ContentQuery),
          response: { 200: Type.Object({ pages: Type.Array(PageSchema) }), ...errors(404) },
        },
      },
      async (request, reply) =>
        sendJsonText(reply, await getPages(ctx, request.actor, (request.params as Record<string, string>).spaceId, { ...selector(request.params as Record<string, string>), ...metadataOf(request.query) })),
    );
    app.get(
      `${prefix}/files`,
      {
        config: { siteToken: true },
        schema: {
          tags: ['content'],
          operationId: `list${operationPrefix}Files`,
          summary: 'The files of a revision',
          params: Type.Object(params),
          querystring: Type.Object({ ...ContentQuery, ...PageQuery }),
          response: { 200: listOf(FileSchema), ...errors(404) },
        },
      },
      (request) => {
        const values = request.params as Record<string, string>;
        return listFiles(ctx, request.actor, values.spaceId, { ...selector(values), ...metadataOf(request.query) }, request.query as PageRequest);
      },
    );
    app.get(
      `${prefix}/files/:fileId`,
      {
        config: { siteToken: true },
        schema: {
          tags: ['content'],
          operationId: `get${operationPrefix}FileById`,
          summary: 'One file of a revision',
          params: Type.Object({ ...params, fileId: IdParam('The unique id of the file') }),
          querystring: Type.Object(ContentQuery),
          response: { 200: FileSchema, ...errors(404) },
        },
      },
      (request) => {
        const values = request.params as Record<string, string>;
        return getFile(ctx, request.actor, values.spaceId, { ...selector(values), ...metadataOf(request.query) }, values.fileId);
      },
    );
    app.get(
      `${prefix}/page/:pageId`,
      {
        config: { siteToken: true },
        schema: {
          tags: ['content'],
          operationId: `get${operationPrefix}PageById`,
          summary: 'One page of a revision, with its markdown',
          params: Type.Object({ ...params, pageId }),
          querystring: Type.Object({ ...ContentQuery, ...FormatQuery, ...DocumentQuery }),
          response: { 200: PageSchema, ...errors(404) },
        },
      },
      async (request, reply) => {
        const values = request.params as Record<string, string>;
        return sendJsonText(reply, await getPage(ctx, request.actor, values.spaceId, { ...selector(values), ...metadataOf(request.query) }, values.pageId, pageContentFormOf(request.query)));
      },
    );
    app.get(
      `${prefix}/page/:pageId/document`,
      {
        config: { siteToken: true },
        schema: {
          tags: ['content'],
          operationId: `get${operationPrefix}PageDocumentById`,
          summary: "A page's JSON document alone, its links resolved where the page sits",
          params: Type.Object({ ...params, pageId }),
          querystring: Type.Object(DocumentQuery),
          response: { 200: JsonDocument, ...errors(404) },
        },
      },
      async (request, reply) => {
        const values = request.params as Record<string, string>;
        return sendJsonText(reply, await getPageDocument(ctx, request.actor, values.spaceId, selector(values), values.pageId, pageContentFormOf(request.query)));
      },
    );
    app.get(
      `${prefix}/page/:pageId/meta-links`,
      {
        config: { siteToken: true },
        schema: {
          tags: ['content'],
          operationId: `list${operationPrefix}PageMetaLinks`,
          summary: "A page's canonical URL and alternates",
          params: Type.Object({ ...params, pageId }),
          response: { 200: MetaLinks, ...errors(404) },
        },
      },
      (request) => {
        const values = request.params as Record<string, string>;
        return getPageMetaLinks(ctx, request.actor, values.spaceId, selector(values), values.pageId);
      },
    );
    app.get(
      `${prefix}/path/*`,
      {
        config: { siteToken: true },
        schema: {
          tags: ['content'],
          operationId: `get${operationPrefix}PageByPath`,
          summary: 'A page by its path',
          params: Type.Object({ ...params, '*': Type.String({ minLength: 1, maxLength: 2048, description: 'The page path, such as guides/install' }) }),
          querystring: Type.Object({ ...ContentQuery, ...FormatQuery, ...DocumentQuery }),
          response: { 200: PageSchema, ...errors(404) },
        },
      },
      async (request, reply) => {
        const values = request.params as Record<string, string>;
        return sendJsonText(reply, await getPageByPath(ctx, request.actor, values.spaceId, { ...selector(values), ...metadataOf(request.query) }, values['*'], pageContentFormOf(request.query)));
      },
    );
    app.get(
      `${prefix}/reusable-contents/:reusableContentId`,
      {
        config: { siteToken: true },
        schema: {
          tags: ['content'],
          operationId: `get${operationPrefix}ReusableContentById`,
          summary: 'A reusable content: its title, the id of its document, and where it sits in git',
          params: Type.Object({ ...params, reusableContentId: IdParam('The unique id of the reusable content') }),
          querystring: Type.Object(ContentQuery),
          response: { 200: ReusableContentSchema, ...errors(404) },
        },
      },
      (request) => {
        const values = request.params as Record<string, string>;
        return getReusableContent(ctx, request.actor, values.spaceId, { ...selector(values), ...metadataOf(request.query) }, values.reusableContentId);
      },
    );
    app.get(
      `${prefix}/reusable-contents/:reusableContentId/document`,
      {
        config: { siteToken: true },
        schema: {
          tags: ['content'],
          operationId: `get${operationPrefix}ReusableContentDocumentById`,
          summary: "A reusable content's JSON document",
          params: Type.Object({ ...params, reusableContentId: IdParam('The unique id of the reusable content') }),
          querystring: Type.Object(DocumentQuery),
          response: { 200: JsonDocument, ...errors(404) },
        },
      },
      async (request, reply) => {
        const values = request.params as Record<string, string>;
        return sendJsonText(reply, await getReusableContentDocument(ctx, request.actor, values.spaceId, selector(values), values.reusableContentId));
      },
    );
  };
}

export const contentReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  await app.register(contentRoutes('/spaces/:spaceId/content', { spaceId }, 'SpaceContent', () => ({ current: true })));
  await app.register(
    contentRoutes('/spaces/:spaceId/revisions/:revisionId', { spaceId, revisionId: IdParam('The unique id of the revision') }, 'Revision', (params) => ({
      revisionId: params.revisionId,
    })),
  );
  await app.register(
    contentRoutes(
      '/spaces/:spaceId/change-requests/:changeRequestId/content',
      { spaceId, changeRequestId: IdParam('The id or number of the change request') },
      'ChangeRequestContent',
      (params) => ({ changeRequest: params.changeRequestId }),
    ),
  );

  app.get(
    '/spaces/:spaceId/embed',
    {
      config: { siteToken: true },
      schema: {
        tags: ['content'],
        operationId: 'getEmbedByUrlInSpace',
        summary: 'What a URL embedded in a page shows: its title, site and icon, fetched through the URL-safety rules',
        params: Type.Object({ spaceId }),
        querystring: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048, description: 'The URL to embed' }) }),
        response: {
          200: Type.Object({ type: Type.Literal('link'), title: Type.String(), site: Type.String(), icon: Type.Optional(Type.String()) }),
          ...errors(404),
        },
      },
    },
    (request) => getEmbed(ctx, request.actor, request.params.spaceId, request.query.url),
  );

  app.get(
    '/spaces/:spaceId/documents/:documentId',
    {
      config: { siteToken: true },
      schema: {
        tags: ['content'],
        operationId: 'getDocumentById',
        summary: "A document of the space's current content by its id (a page's documentId)",
        params: Type.Object({ spaceId, documentId: IdParam('The id of the document') }),
        querystring: Type.Object(DocumentQuery),
        response: { 200: JsonDocument, ...errors(404) },
      },
    },
    async (request, reply) => sendJsonText(reply, await getDocumentById(ctx, request.actor, request.params.spaceId, request.params.documentId)),
  );
};

/** GET /files/download/{token} and /pdf/{token}: what a signed link grants, without an API token. */
export const fileDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  app.get(
    '/files/download/:token',
    { schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 4096 }) }) } },
    async (request, reply) => {
      const file = await downloadFile(ctx, request.params.token);
      if (!file) throw new NotFound('This download link is invalid or has expired; ask the API for a fresh one');
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header('x-content-type-options', 'nosniff')
        // Uploaded bytes never run as a page of Quire's origin (an SVG may carry script).
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.bytes);
    },
  );

  app.get(
    '/pdf/:token',
    { schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 4096 }) }) } },
    async (request, reply) => {
      const pdf = await renderPdfLink(ctx, request.params.token);
      if (!pdf) throw new NotFound('This PDF link is invalid or has expired; ask the API for a fresh one');
      return reply.header('content-type', 'application/pdf').header('content-disposition', 'inline; filename="change-request.pdf"').send(pdf);
    },
  );
};
