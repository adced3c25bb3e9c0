// /v1/spaces/{spaceId}/comments and /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments:
// the same ten operations for both families.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  getComment,
  getReply,
  listComments,
  listReplies,
  postComment,
  postReply,
  putComment,
  putReply,
  removeComment,
  type CommentPlace,
} from '../../services/comments.ts';
import { IdParam, NoContent, OrderQuery, PageQuery, UserSchema, errors, listOf } from '../schemas.ts';

const MAX_BODY = 25_000;
const Body = Type.Object(
  { markdown: Type.String({ minLength: 1, maxLength: MAX_BODY, description: 'Markdown; mention people as [@Name](user:<userId>)' }) },
  { description: 'What the comment says' },
);
const Format = Type.Optional(
  Type.Unsafe<'markdown' | 'document'>({ type: 'string', enum: ['markdown', 'document'], description: 'markdown (default) or document' }),
);
const Emojis = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20 });
const Reactions = Type.Array(
  Type.Object({ emoji: Type.String(), count: Type.Number(), users: Type.Array(Type.Object({ user: UserSchema, reactedAt: Type.String() })) }),
);
const Permissions = Type.Optional(Type.Object({ view: Type.Boolean(), edit: Type.Boolean(), reply: Type.Boolean(), delete: Type.Boolean() }));
const AnyBody = Type.Object({}, { additionalProperties: true, description: '{markdown}, or a JSON document with format=document' });

const CommentSchema = Type.Object({
  object: Type.Literal('comment'),
  id: Type.String(),
  postedBy: UserSchema,
  postedAt: Type.String({ format: 'date-time' }),
  editedAt: Type.Optional(Type.String({ format: 'date-time' })),
  reactions: Reactions,
  replies: Type.Number(),
  body: AnyBody,
  target: Type.Object({}, { additionalProperties: true }),
  urls: Type.Object({ location: Type.String() }),
  status: Type.String({ enum: ['open', 'resolved'] }),
  resolvedAt: Type.Optional(Type.String({ format: 'date-time' })),
  resolvedBy: Type.Optional(UserSchema),
  permissions: Permissions,
});

const ReplySchema = Type.Object({
  object: Type.Literal('comment-reply'),
  id: Type.String(),
  postedBy: UserSchema,
  postedAt: Type.String({ format: 'date-time' }),
  editedAt: Type.Optional(Type.String({ format: 'date-time' })),
  reactions: Reactions,
  body: AnyBody,
  urls: Type.Object({ location: Type.String() }),
  permissions: Permissions,
});

interface Family {
  base: string;
  params: Record<string, TSchema>;
  operation: (name: string) => string;
  tag: string;
}

const FAMILIES: Family[] = [
  { base: '/spaces/:spaceId/comments', params: { spaceId: IdParam('The space') }, operation: (name) => `${name}InSpace`, tag: 'space comments' },
  {
    base: '/spaces/:spaceId/change-requests/:changeRequestId/comments',
    params: { spaceId: IdParam('The space'), changeRequestId: IdParam('The change request (id or number)') },
    operation: (name) => `${name}InChangeRequest`,
    tag: 'change request comments',
  },
];

function placeOf(params: Record<string, string>): CommentPlace {
  return { spaceId: params.spaceId, ...(params.changeRequestId ? { changeRequest: params.changeRequestId } : {}) };
}

export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  for (const family of FAMILIES) {
    const commentParams = Type.Object({ ...family.params, commentId: IdParam('The comment') });
    const replyParams = Type.Object({ ...family.params, commentId: IdParam('The comment'), commentReplyId: IdParam('The reply') });
    const tags = [family.tag];
    const params = (request: { params: unknown }) => request.params as Record<string, string>;

    app.get(
      family.base,
      {
        schema: {
          tags,
          operationId: family.operation('listComments'),
          summary: 'List comments (newest first unless order=asc)',
          params: Type.Object(family.params),
          querystring: Type.Object({
            ...PageQuery,
            order: OrderQuery,
            status: Type.Optional(Type.Unsafe<'all' | 'open' | 'resolved'>({ type: 'string', enum: ['all', 'open', 'resolved'], default: 'all' })),
            targetPage: Type.Optional(IdParam('Only comments on this page')),
            format: Format,
          }),
          response: { 200: listOf(CommentSchema), ...errors(404) },
        },
      },
      (request) => listComments(ctx, request.actor, placeOf(params(request)), request.query),
    );

    app.post(
      family.base,
      {
        schema: {
          tags,
          operationId: family.operation('postComment'),
          summary: 'Post a comment, optionally on a page (and a node of it)',
          params: Type.Object(family.params),
          body: Type.Object({ body: Body, page: Type.Optional(IdParam('The page')), node: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }),
          response: { 200: CommentSchema, ...errors(403, 404) },
        },
      },
      (request) => postComment(ctx, request.actor, placeOf(params(request)), request.body),
    );

    app.get(
      `${family.base}/:commentId`,
      {
        schema: {
          tags,
          operationId: family.operation('getComment'),
          summary: 'Get a comment',
          params: commentParams,
          querystring: Type.Object({ format: Format }),
          response: { 200: CommentSchema, ...errors(404) },
        },
      },
      (request) => getComment(ctx, request.actor, placeOf(params(request)), params(request).commentId, request.query.format),
    );

    app.put(
      `${family.base}/:commentId`,
      {
        schema: {
          tags,
          operationId: family.operation('updateComment'),
          summary: 'Resolve or reopen a comment, change its body (author), add or remove your reactions',
          params: commentParams,
          body: Type.Object({
            resolved: Type.Optional(Type.Boolean()),
            body: Type.Optional(Body),
            addedReactions: Type.Optional(Emojis),
            removedReactions: Type.Optional(Emojis),
          }),
          response: { 200: CommentSchema, ...errors(403, 404) },
        },
      },
      (request) => putComment(ctx, request.actor, placeOf(params(request)), params(request).commentId, request.body),
    );

    app.delete(
      `${family.base}/:commentId`,
      {
        schema: {
          tags,
          operationId: family.operation('deleteComment'),
          summary: 'Delete a comment with its replies and reactions (author or administrator)',
          params: commentParams,
          response: { 204: NoContent, ...errors(403, 404) },
        },
      },
      async (request, reply) => {
        await removeComment(ctx, request.actor, placeOf(params(request)), params(request).commentId);
        return reply.code(204).send();
      },
    );

    app.get(
      `${family.base}/:commentId/replies`,
      {
        schema: {
          tags,
          operationId: family.operation('listCommentReplies'),
          summary: 'List the replies to a comment, oldest first',
          params: commentParams,
          querystring: Type.Object({ ...PageQuery, format: Format }),
          response: { 200: listOf(ReplySchema), ...errors(404) },
        },
      },
      (request) => listReplies(ctx, request.actor, placeOf(params(request)), params(request).commentId, request.query),
    );

    app.post(
      `${family.base}/:commentId/replies`,
      {
        schema: {
          tags,
          operationId: family.operation('postCommentReply'),
          summary: 'Reply to a comment',
          params: commentParams,
          body: Type.Object({ body: Body }),
          response: { 200: ReplySchema, ...errors(403, 404) },
        },
      },
      (request) => postReply(ctx, request.actor, placeOf(params(request)), params(request).commentId, request.body.body),
    );

    app.get(
      `${family.base}/:commentId/replies/:commentReplyId`,
      {
        schema: {
          tags,
          operationId: family.operation('getCommentReply'),
          summary: 'Get a reply',
          params: replyParams,
          querystring: Type.Object({ format: Format }),
          response: { 200: ReplySchema, ...errors(404) },
        },
      },
      (request) =>
        getReply(ctx, request.actor, placeOf(params(request)), params(request).commentId, params(request).commentReplyId, request.query.format),
    );

    app.put(
      `${family.base}/:commentId/replies/:commentReplyId`,
      {
        schema: {
          tags,
          operationId: family.operation('updateCommentReply'),
          summary: 'Change a reply (author) or your reactions to it',
          params: replyParams,
          body: Type.Object({ body: Type.Optional(Body), addedReactions: Type.Optional(Emojis), removedReactions: Type.Optional(Emojis) }),
          response: { 200: ReplySchema, ...errors(403, 404) },
        },
      },
      (request) =>
        putReply(ctx, request.actor, placeOf(params(request)), params(request).commentId, params(request).commentReplyId, request.body),
    );

    app.delete(
      `${family.base}/:commentId/replies/:commentReplyId`,
      {
        schema: {
          tags,
          operationId: family.operation('deleteCommentReply'),
          summary: 'Delete a reply (author or administrator)',
          params: replyParams,
          response: { 204: NoContent, ...errors(403, 404) },
        },
      },
      async (request, reply) => {
        await removeComment(ctx, request.actor, placeOf(params(request)), params(request).commentReplyId, params(request).commentId);
        return reply.code(204).send();
      },
    );
  }
};
