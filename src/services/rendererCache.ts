// GitBook's renderer's cache: told what changed, so that it reads exactly that again.
// A subscriber of the event seam (registered in jobs/subscribers.ts).
import { createHmac } from 'node:crypto';
import { sitesShowingSpaces } from '../db/repos/siteStructure.ts';
import { RetryLater } from '../jobs/queue.ts';
import type { ServiceContext } from './context.ts';
import type { SiteUpdated, SpaceContentUpdated } from './events.ts';

const RENDERER_TIMEOUT_MS = 10_000;

/**
 * Tells GitBook's renderer that a space's published content or a site changed, with
 * the cache tags it read them under (`space:<id>`, `site:<id>`, as plugins/cacheTags.ts
 * tags the answers), signed as it checks them: HMAC-SHA256 of the body with its GITBOOK_SECRET.
 */
export async function revalidateRenderer(ctx: ServiceContext, event: SpaceContentUpdated | SiteUpdated): Promise<void> {
  const renderer = ctx.config.renderer;
  if (!renderer) return;
  const tags = event.type === 'site_updated' ? [`site:${event.siteId}`] : [`space:${event.spaceId}`, ...(await sitesShowingSpaces(ctx.db, [event.spaceId])).map((site) => `site:${site}`)];
  const body = JSON.stringify({ tags });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (renderer.secret) headers['x-gitbook-signature'] = createHmac('sha256', renderer.secret).update(body).digest('hex');
  let response: Response;
  try {
    response = await fetch(`${renderer.url}/~gitbook/revalidate`, { method: 'POST', headers, body, signal: AbortSignal.timeout(RENDERER_TIMEOUT_MS) });
  } catch (error) {
    throw new RetryLater(`the renderer at ${renderer.url} could not be reached (${(error as Error).message})`);
  }
  await response.body?.cancel();
  if (!response.ok) throw new RetryLater(`the renderer at ${renderer.url} answered ${response.status} to a revalidation; check QUIRE_RENDERER_SECRET against its GITBOOK_SECRET`);
}
