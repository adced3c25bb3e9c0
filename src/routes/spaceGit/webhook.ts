// POST /v1/spaces/{spaceId}/git/webhook: where GitHub, GitLab, Gitea/Forgejo and
// Bitbucket call on push. No token: the call is signed with the space's webhook secret
// (GET …/git/info shows it to those who may set up the sync), and the signature is
// over the body's bytes as sent, so the body is kept as it came. Outside the
// token-checked /v1 routes on purpose.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { receiveGitWebhook } from '../../services/gitSync.ts';
import { IdParam, errors } from '../schemas.ts';

const WebhookAnswer = Type.Object({
  result: Type.Union([Type.Literal('started'), Type.Literal('ignored'), Type.Literal('ping')], {
    description: 'started: an import of the synced branch is queued; ignored: the call was signed but is not a push to that branch; ping: the host checked the webhook',
  }),
  message: Type.String(),
});

export const gitWebhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post(
    '/v1/spaces/:spaceId/git/webhook',
    {
      schema: {
        tags: ['space-git'],
        operationId: 'receiveGitWebhook',
        summary: "A git host's push webhook (Quire): imports the synced branch when a push moves it",
        description:
          "Signed with the space's webhook secret: GitHub's X-Hub-Signature-256, Bitbucket's X-Hub-Signature, Gitea's and Forgejo's X-Gitea-Signature, or GitLab's X-Gitlab-Token. An unsigned or wrongly signed call answers 401 and changes nothing.",
        security: [{ gitWebhookSignature: [] }],
        params: Type.Object({ spaceId: IdParam('The unique id of the space') }),
        response: { 200: WebhookAnswer, 202: WebhookAnswer, ...errors(401) },
      },
    },
    async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const answer = await receiveGitWebhook(ctx, request.params.spaceId, request.headers, body);
      return reply.code(answer.result === 'started' ? 202 : 200).send(answer);
    },
  );
};
