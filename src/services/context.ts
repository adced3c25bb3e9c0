// What every service function receives: the database, the clock, the configuration and
// what the process keeps in memory.
//
// Transactions pass one way: a service operation opens one on `ctx.db`, and every
// function it calls that reads or writes takes the database handle it must use (the
// transaction, or `ctx.db` outside one) as a parameter right after `ctx`, or first when
// it needs no context: `authorizeInOrganization(ctx, trx, actor, …)`,
// `authorizeSpace(trx, actor, …)`, `requireTeam(trx, …)`. Never an option, never last.
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database, OrganizationWithAccessRow, PublishedSiteRows, SpaceReadWithToken, UserRow } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { SiteTokenScope } from '../lib/siteTokens.ts';
import type { IntegrationSandbox } from '../sandbox/sandbox.ts';
import type { JobRuns } from '../jobs/runs.ts';
import type { RevisionCaches } from './revisionCaches.ts';

export interface ServiceContext {
  db: Kysely<Database>;
  clock: Clock;
  /** Where background work reports (request handlers log through request.log). */
  log: FastifyBaseLogger;
  config: Pick<Config, 'publicUrl' | 'allowPrivateUrls'> & Partial<Pick<Config, 'gitSyncPollSeconds' | 'bodyLimit' | 'jobLeaseMs' | 'pdfMaxPages' | 'pdfMaxText' | 'mermaidUrl' | 'renderer' | 'mail'>>;
  /** Signs links that carry their own permission (file downloads, PDFs); shared by all processes. */
  linkKey: string;
  /** The key sealing integration secrets, read when first needed (see lib/secretBox.ts). */
  secretsKey: () => Buffer;
  /** Where integration scripts run (started with the first event). */
  sandbox: IntegrationSandbox;
  /** The job runs this process started, waited for before its database closes. */
  jobRuns: JobRuns;
  /** What the revisions service keeps in memory (services/revisionCaches.ts): the process's, in the server. */
  revisions: RevisionCaches;
}

/** The authenticated caller of an API operation. */
export interface Actor {
  user: UserRow;
  tokenId: string;
  /**
   * The organization named in the request path and the caller's access to it, read
   * with the token in one round trip (undefined organization: it does not exist), and
   * its access version, which names the rest of the caller's content standing there.
   */
  requestOrganization?: { organizationId: string; organization: OrganizationWithAccessRow | undefined; accessVersion: number };
  /**
   * On a read under /spaces/{spaceId}: that space, read with the token (undefined
   * space: none); for a site token, its site as published, read in the same query.
   */
  requestSpace?: { spaceId: string; space: SpaceReadWithToken | undefined; published?: PublishedSiteRows | undefined };
  /** Set for a site token: the published site it reads, and as whom (lib/siteTokens.ts). */
  site?: SiteTokenScope;
  /** Set for an API token or a session (not a site token): what sign-in's routes present of it. */
  token?: { kind: 'api' | 'session'; createdAt: string; expiresAt: string | null; viaCookie: boolean };
}
