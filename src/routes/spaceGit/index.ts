// /v1/spaces/{spaceId}/git: Git Sync. Import and export start a job and answer 204; info
// answers the connection and its last operation (404 before the first); delete forgets
// the connection, so that the space's changes are no longer exported.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { disconnectGitSync, exportToGitRepository, getSpaceGitInfo, importGitRepository } from '../../services/gitSync.ts';
import { IdParam, NoContent, errors } from '../schemas.ts';

const SpaceParams = Type.Object({ spaceId: IdParam('The unique id of the space') });

const Operation = {
  url: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        "The repository over HTTP(S), with basic-auth credentials if it needs them (https://user:token@host/repo.git). Once an operation with it succeeds it is the space's connection, its credentials sealed: later operations, webhooks and polls use it, and may leave url out. A failed operation changes no connection",
    }),
  ),
  ref: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'The git ref, as "refs/heads/main"; the connection\'s when left out' })),
  repoCacheID: Type.Optional(Type.String({ maxLength: 255, description: 'Accepted for GitBook compatibility; Quire fetches afresh each time' })),
  repoTreeURL: Type.Optional(Type.String({ maxLength: 2048, description: 'Where readers browse the repository' })),
  repoCommitURL: Type.Optional(Type.String({ maxLength: 2048, description: 'Prefix of commit URLs' })),
  repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1024, description: 'The folder of the repository that holds the project (and its .gitbook.yaml)' })),
  timestamp: Type.Optional(Type.String({ format: 'date-time', description: 'When the event behind this operation happened: an operation older than the last one asked for is ignored' })),
  force: Type.Optional(Type.Boolean({ description: 'Import: the repository wins over changes in the space. Export: the space overwrites changes in the repository' })),
  gitInfo: Type.Optional(
    Type.Object({
      provider: Type.Optional(Type.Unsafe<'github' | 'gitlab'>({ type: 'string', enum: ['github', 'gitlab'] })),
      url: Type.Optional(Type.String({ maxLength: 2048, description: "The repository's tree URL" })),
    }),
  ),
};

const GitSyncState = Type.Object({
  repoName: Type.String(),
  installationProvider: Type.Optional(Type.String()),
  url: Type.String(),
  ref: Type.String(),
  repoProjectDirectory: Type.Optional(Type.String()),
  commit: Type.Optional(Type.String({ description: 'The commit the space was last in sync with' })),
  updatedAt: Type.String(),
  connected: Type.Boolean({ description: 'Quire: an operation with this remote succeeded, so its credentials are kept (sealed) and operations may leave url out' }),
  exportsChanges: Type.Boolean({ description: "Quire: each merge into the space is exported as a commit of its own (set up by an export that is not standalone)" }),
  pendingExports: Type.Integer({ description: 'Quire: merges waiting for their commits, exported in order once the remote answers' }),
  lastFailure: Type.Optional(
    Type.Object({ error: Type.String(), at: Type.String({ format: 'date-time' }) }, { description: 'Quire: the last failure of an operation or a poll, until an operation succeeds' }),
  ),
  webhook: Type.Optional(
    Type.Object(
      {
        url: Type.String({ description: "Where the git host calls on push (GitHub, GitLab, Gitea/Forgejo, Bitbucket)" }),
        secret: Type.String({ description: "The webhook's secret: GitHub, Gitea and Bitbucket sign with it, GitLab sends it as its token" }),
      },
      { description: 'Quire: the push webhook, shown to those who may set up the sync' },
    ),
  ),
  operation: Type.Object({
    state: Type.Union([Type.Literal('running'), Type.Literal('success'), Type.Literal('failure')]),
    direction: Type.Union([Type.Literal('import'), Type.Literal('export')]),
    startedAt: Type.String(),
    endedAt: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
    warnings: Type.Array(Type.String()),
  }),
});

export const spaceGitRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.post(
    '/spaces/:spaceId/git/import',
    {
      schema: {
        tags: ['space-git'],
        operationId: 'importGitRepository',
        summary: "Bring a git repository's docs into the space (in the background)",
        params: SpaceParams,
        body: Type.Object({ ...Operation, standalone: Type.Optional(Type.Boolean({ description: 'Make the import a change request instead of changing the space' })) }),
        response: { 204: NoContent, ...errors(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await importGitRepository(ctx, request.actor, request.params.spaceId, request.body);
      return reply.code(204).send();
    },
  );

  app.post(
    '/spaces/:spaceId/git/export',
    {
      schema: {
        tags: ['space-git'],
        operationId: 'exportToGitRepository',
        summary: "Commit the space's content to a git repository and push it (in the background)",
        params: SpaceParams,
        body: Type.Object({
          ...Operation,
          commitMessage: Type.String({ minLength: 1, maxLength: 10_000, description: 'Message of the commit' }),
          standalone: Type.Optional(Type.Boolean({ description: "A snapshot: the space's later changes are not exported to this branch" })),
        }),
        response: { 204: NoContent, ...errors(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await exportToGitRepository(ctx, request.actor, request.params.spaceId, request.body);
      return reply.code(204).send();
    },
  );

  app.get(
    '/spaces/:spaceId/git/info',
    {
      schema: {
        tags: ['space-git'],
        operationId: 'getSpaceGitInfo',
        summary: "The space's Git Sync repository and the state of its last import or export",
        params: SpaceParams,
        response: { 200: GitSyncState, ...errors(403, 404) },
      },
    },
    (request) => getSpaceGitInfo(ctx, request.actor, request.params.spaceId),
  );

  app.delete(
    '/spaces/:spaceId/git',
    {
      schema: {
        tags: ['space-git'],
        operationId: 'disconnectGitSync',
        summary: "Forget the space's Git Sync repository (Quire): its changes are no longer exported, and its credentials are dropped",
        params: SpaceParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await disconnectGitSync(ctx, request.actor, request.params.spaceId);
      return reply.code(204).send();
    },
  );
};
