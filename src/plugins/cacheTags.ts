// GitBook's cache tags on what GitBook's renderer reads (the operations a site token
// may call): `space:<id>`, `space:<id>:change-request:<id>` and `site:<id>`, in the
// x-gitbook-cache-tag header. The renderer files each answer under them, and the
// revalidation Quire sends when published content changes (services/events.ts) names
// the same tags, so exactly what changed is read again. A site's own changes (every
// write under /orgs/{id}/sites/{siteId}) are announced by an event written before the
// change is made and delivered once it has succeeded; a space's content changes
// announce themselves with their revision.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { holdSiteUpdated, releaseSiteUpdated, type HeldSiteAnnouncement } from '../services/events.ts';

declare module 'fastify' {
  interface FastifyRequest {
    siteAnnouncement?: HeldSiteAnnouncement;
  }
}

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
  app.decorateRequest('siteAnnouncement', undefined);
  app.addHook('preHandler', async (request) => {
    const { organizationId, siteId } = request.params as { organizationId?: string; siteId?: string };
    // What a site token may call is a read, though some are POSTs (a site search).
    const write = request.method !== 'GET' && !request.routeOptions.config.siteToken;
    if (write && organizationId && siteId && app.ctx.config.renderer) {
      request.siteAnnouncement = await holdSiteUpdated(app.ctx, organizationId, siteId);
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.siteAnnouncement) {
      const announcement = request.siteAnnouncement;
      request.siteAnnouncement = undefined;
      await releaseSiteUpdated(app.ctx, announcement, reply.statusCode < 300);
    }
    if (!request.routeOptions.config.siteToken || reply.statusCode !== 200) return payload;
    const tags = tagsOf(request);
    if (tags.length > 0) reply.header(CACHE_TAG_HEADER, tags.join(','));
    return payload;
  });
}
