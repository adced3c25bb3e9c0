// /integration-assets/{assetId}: integration icons and preview images, without a token
// (the id is unguessable), as browsers and marketplace pages load them.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFound } from '../../errors.ts';
import { integrationAsset } from '../../services/integrations.ts';
import { IdParam } from '../schemas.ts';

export const integrationAssetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  app.get(
    '/integration-assets/:assetId',
    { schema: { hide: true, params: Type.Object({ assetId: IdParam('The image id') }) } },
    async (request, reply) => {
      const asset = await integrationAsset(ctx, request.params.assetId);
      if (!asset) throw new NotFound('No such integration image; it may have been replaced by a newer publication');
      return reply
        .header('content-type', asset.contentType)
        .header('x-content-type-options', 'nosniff')
        // An SVG may carry script: it never runs as a page of Quire's origin.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        // A new publication makes new ids, so an image never changes under its URL.
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(asset.bytes);
    },
  );
};
