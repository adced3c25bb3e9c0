// POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import: a
// website, crawled and written into the change request as one new revision.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { importIntoChangeRequest } from '../../services/contentImport.ts';
import { IdParam, errors } from '../schemas.ts';

const ImportResult = Type.Object({
  revision: Type.String({ description: 'The change request revision holding the import (its current one while the import is still running)' }),
  importedResources: Type.Number({ description: 'Pages and images imported' }),
  totalResources: Type.Number({ description: 'Pages and images tried' }),
});

export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/import',
    {
      schema: {
        tags: ['content'],
        operationId: 'importContentInChangeRequest',
        summary: 'Import a website into the change request (same origin, robots.txt respected, bounded)',
        description:
          'Answers 201 when the crawl finished within the request, with the new revision. Answers 202 when it did not ' +
          '(the import job failed once or this process is stopping): the job is retried and the revision appears later.',
        params: Type.Object({ spaceId: IdParam('The unique id of the space'), changeRequestId: IdParam('The id or number of the change request') }),
        body: Type.Object({
          url: Type.String({ format: 'uri', maxLength: 2048, description: 'Where the site starts' }),
          source: Type.Unsafe<'website'>({ type: 'string', enum: ['website'], description: 'What the URL holds; Quire imports websites' }),
        }),
        response: { 201: ImportResult, 202: ImportResult, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { finished, result } = await importIntoChangeRequest(ctx, request.actor, request.params.spaceId, request.params.changeRequestId, request.body);
      return reply.code(finished ? 201 : 202).send(result);
    },
  );
};
