// GitBook's cache tags on what GitBook's renderer reads (the operations a site token
// may call): `space:<id>`, `space:<id>:change-request:<id>` and `site:<id>`, in the
// x-gitbook-cache-tag header. The renderer files each answer under them, and the
// revalidation Quire sends when published content changes (services/events.ts) names
// the same tags, so exactly what changed is read again. A site's own changes (every
// successful write under /orgs/{id}/sites/{siteId}) are announced before they are
// answered; a space's content changes announce themselves with their revision.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { announceSiteUpdated } from '../services/events.ts';

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
    const { organizationId, siteId } = request.params as { organizationId?: string; siteId?: string };
    if (request.method !== 'GET' && organizationId && siteId && reply.statusCode < 300 && app.ctx.config.renderer) {
      await announceSiteUpdated(app.ctx, organizationId, siteId);
    }
    if (!request.routeOptions.config.siteToken || reply.statusCode !== 200) return payload;
    const tags = tagsOf(request);
    if (tags.length > 0) reply.header(CACHE_TAG_HEADER, tags.join(','));
    return payload;
  });
}
