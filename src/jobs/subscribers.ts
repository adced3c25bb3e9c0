// What follows a change: every subscriber of the event seam (services/events.ts), in the
// order its deliveries are written, registered at start beside the job handlers
// (handlers.ts), so that the seam imports none of the services it feeds.
import { ONE, onContent, subscribe, type IntegrationEvent, type SiteUpdated, type SpaceContentUpdated, type Subscriber } from '../services/events.ts';
import { queueExportOfChange } from '../services/gitSync.ts';
import { exportWaitingChanges } from '../services/gitSyncRun.ts';
import { deliverToInstallation, installationsReceiving } from '../services/integrationEvents.ts';
import { queueLinkChecksOfChange } from '../services/links.ts';
import { prepareSpaceDocuments } from '../services/pageDocuments.ts';
import { revalidateRenderer } from '../services/rendererCache.ts';
import { catchUpSearchIndex } from '../services/search.ts';

export const eventSubscribers: Record<string, Subscriber> = {
  'search-index': onContent((ctx, event) => catchUpSearchIndex(ctx.db, event.spaceId)),
  'page-documents': onContent((ctx, event) => prepareSpaceDocuments(ctx, event.spaceId)),
  'link-checks': onContent((ctx, event) => queueLinkChecksOfChange(ctx, event.previousRevisionId, event.revisionId)),
  'renderer-cache': {
    targets: (ctx, _trx, event) => (ctx.config.renderer !== undefined && (event.type === 'space_content_updated' || event.type === 'site_updated') ? ONE : []),
    run: (ctx, event) => revalidateRenderer(ctx, event as SpaceContentUpdated | SiteUpdated),
  },
  // Queues the merge's commit in the committing transaction, so none is lost, then starts the export.
  'git-export': onContent((ctx, event) => exportWaitingChanges(ctx, event.spaceId), (ctx, trx, event) => queueExportOfChange(ctx, trx, event)),
  // Without a runtime (QUIRE_INTEGRATIONS=false, or no workerd here) integrations receive nothing: the start says why.
  integration: {
    targets: (ctx, trx, event) => (ctx.sandbox.unavailable || event.type === 'site_updated' ? [] : installationsReceiving(trx, event)),
    run: (ctx, event, installationId, eventId) => deliverToInstallation(ctx, eventId, event as IntegrationEvent, installationId),
  },
};

/** Registers every subscriber: at start, before the first change (buildApp, the command line's services). */
export function registerEventSubscribers(): void {
  for (const [name, subscriber] of Object.entries(eventSubscribers)) subscribe(name, subscriber);
}
