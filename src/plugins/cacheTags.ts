// GitBook's cache tags on what GitBook's renderer reads (the operations a site token
// may call): `space:<id>`, `space:<id>:change-request:<id>` and `site:<id>`, in the
// x-gitbook-cache-tag header. The renderer files each answer under them, and the
// revalidation Quire sends when published content changes (services/rendererCache.ts)
// names the same tags, so exactly what changed is read again. What changed is
// announced by the services that change it, in the change's own transaction: a
// space's content with its revision (commitRevision), a site's settings and structure
// with changeSite (services/events.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const CACHE_TAG_HEADER = 'x-gitbook-cache-tag';

function tagsOf(request: FastifyRequest): string[] {
  const params = request.params as { spaceId?: string; changeRequestId?: string; siteId?: string };
  const tags: string[] = [];
  if (params.spaceId) tags.push(`space:${params.spaceId}`);
  if (params.spaceId && params.changeRequestId) tags.push(`space:${params.spaceId}:change-request:${params.changeRequestId}`);
  if (params.siteId) tags.push(`site:${params.siteId}`);
  return tags;
}

export function tagPublishedReads(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.routeOptions.config.siteToken || reply.statusCode !== 200) return payload;
    const tags = tagsOf(request);
    if (tags.length > 0) reply.header(CACHE_TAG_HEADER, tags.join(','));
    return payload;
  });
}
