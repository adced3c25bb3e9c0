// buildApp: a configured Fastify instance with every route, ready to listen or inject.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import { linkSigningKey } from './db/repos/settings.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import { createSandbox } from './sandbox/sandbox.ts';
import { JobRuns } from './jobs/queue.ts';
import { processRevisionCaches } from './services/revisionCaches.ts';
import { registerEventSubscribers } from './jobs/subscribers.ts';
import { integrationFetchRoutes } from './routes/integrations/publicEndpoints.ts';
import type { DatabaseHandle } from './db/index.ts';
import { answerClientError, BadRequest, errorBody, handleError } from './errors.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { loadSecretsKey } from './lib/secretBox.ts';
import { loggerOptions } from './lib/logging.ts';
import { closeCpuPool } from './workers/pool.ts';
import { requireBearerToken } from './plugins/auth.ts';
import { gitWebhookRoutes } from './routes/spaceGit/webhook.ts';
import { publishedUrlRoutes } from './routes/urls/index.ts';
import { tagPublishedReads } from './plugins/cacheTags.ts';
import { limitRequestsPerToken } from './plugins/rateLimit.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { schemaController, useSplitValidation } from './plugins/validation.ts';
import type { ServiceContext } from './services/context.ts';
import { changeRequestRoutes } from './routes/changeRequests/index.ts';
import { collectionRoutes } from './routes/collections/index.ts';
import { commentRoutes } from './routes/comments/index.ts';
import { contentReadRoutes, fileDownloadRoutes } from './routes/content/index.ts';
import { readerRoutes, siteHostnameHook } from './reader/routes.ts';
import { webAppRoutes } from './webApp/routes.ts';
import { customFieldRoutes } from './routes/customFields/index.ts';
import { importRoutes } from './routes/imports/index.ts';
import { integrationRoutes } from './routes/integrations/index.ts';
import { integrationAssetRoutes } from './routes/integrations/integrationAssets.ts';
import { inviteRoutes } from './routes/invites/index.ts';
import { emailInviteRoutes } from './routes/invites/emailInvites.ts';
import { linkRoutes } from './routes/links/index.ts';
import { samlRoutes } from './routes/saml/index.ts';
import { samlServiceRoutes } from './routes/saml/samlService.ts';
import { oidcRoutes } from './routes/oidc/index.ts';
import { oidcServiceRoutes } from './routes/oidc/oidcService.ts';
import { passwordResetRoutes } from './routes/auth/passwordReset.ts';
import { searchRoutes } from './routes/search/index.ts';
import { siteRoutes } from './routes/sites/index.ts';
import { siteSectionRoutes } from './routes/siteSections/index.ts';
import { siteSpaceRoutes } from './routes/siteSpaces/index.ts';
import { siteRedirectRoutes } from './routes/siteRedirects/index.ts';
import { spaceGitRoutes } from './routes/spaceGit/index.ts';
import { spaceRoutes } from './routes/spaces/index.ts';
import { memberRoutes } from './routes/members/index.ts';
import { openApiSpecRoutes } from './routes/openApiSpecs/index.ts';
import { organizationRoutes } from './routes/organizations/index.ts';
import { teamRoutes } from './routes/teams/index.ts';
import { translationRoutes } from './routes/translations/index.ts';
import { userRoutes } from './routes/users/index.ts';
import { accountRoutes } from './routes/account/index.ts';
import { signInRoutes } from './routes/auth/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: ServiceContext;
  }
}

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  /** Close the database when the app closes (the server owns it; tests may not). */
  closeDatabase?: boolean;
  /** The built browser app's directory; by default the build of web/'s current sources (null: none). */
  webAppDirectory?: string | null;
}

/** A \u0000 escape not itself escaped: PostgreSQL cannot store NUL in text, so no engine accepts it. */
const NUL_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u0000/;

/** A JSON escape of a UTF-16 surrogate: only then can a parsed string hold a lone one. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Where in a parsed body a string or key holds a lone surrogate, which UTF-8 cannot store (it would become U+FFFD). */
function loneSurrogateAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
    if (LONE_SURROGATE.test(key)) return itemPath;
    const found = loneSurrogateAt(item, itemPath);
    if (found) return found;
  }
  return undefined;
}

function acceptJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Bodies are JSON: anything else is a 415 rather than a string that fails validation.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    // GitBook's client sends merge and publish with this header and no body.
    if (body === '') {
      done(null, undefined);
      return;
    }
    if (NUL_ESCAPE.test(body)) {
      done(new BadRequest('Text values must not contain NUL characters (\\u0000)'), undefined);
      return;
    }
    parseJson(request, body, (error: Error | null, parsed?: unknown) => {
      if (error) {
        done(new BadRequest(whyNotJson(body)), undefined);
        return;
      }
      const lone = SURROGATE_ESCAPE.test(body) && loneSurrogateAt(parsed, 'body');
      if (lone) done(new BadRequest(`${lone}: text must be valid Unicode (it holds a lone surrogate \\uD800–\\uDFFF)`), undefined);
      else done(null, parsed);
    });
  });
}

/**
 * Why Fastify's parser refused a body, which its own error does not say: JSON.parse's
 * account of where the text goes wrong, or else the keys that could change objects'
 * prototypes, which it refuses in valid JSON. Runs only for refused bodies.
 */
function whyNotJson(body: string): string {
  try {
    JSON.parse(body);
  } catch (error) {
    return `The body is not valid JSON: ${(error as SyntaxError).message}`;
  }
  return 'The body holds a "__proto__" key, or a "constructor" key holding "prototype", which are refused: no field of the API has these names';
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    // Fastify logs two lines per request at info; Quire logs one at debug (below).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    // A client must send its whole request within the timeout, and an idle connection
    // is closed after it: slow or stalled clients cannot hold sockets forever.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.requestTimeoutMs,
    // No timeout on a socket's silence: a long answer (a large PDF, a big merge) is
    // silent while it is made, and must not be cut. Requests that do not arrive in time
    // (and sockets that never send one) are found by Node's check, run every second
    // rather than every 30 s; idle keep-alive sockets end by keepAliveTimeout.
    connectionTimeout: 0,
    http: { headersTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 1000 },
    routerOptions: { maxParamLength: 2048 },
    // Errors raised before routing (a URL that does not decode, for one) get the same shape.
    frameworkErrors: (error, request, reply) => handleError(error, request, reply),
    clientErrorHandler: answerClientError,
    return503OnClosing: true,
    schemaController,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // What follows a change, before the app makes the first one.
  registerEventSubscribers();
  const linkKey = await linkSigningKey(database.db);
  let secretsKey: Buffer | undefined;
  app.decorate('ctx', {
    db: database.db,
    log: app.log,
    clock: options.clock ?? systemClock,
    config,
    linkKey,
    secretsKey: () => (secretsKey ??= loadSecretsKey(config)),
    sandbox: createSandbox(config, app.log),
    jobRuns: new JobRuns(),
    revisions: processRevisionCaches,
  });
  // One hook, in this order (Fastify runs separate onClose hooks last-added first): the
  // sandbox refuses the runs waiting for it, which put their jobs back; the job runs this
  // process started end; then the worker threads and the database close.
  app.addHook('onClose', async () => {
    await app.ctx.sandbox.close();
    await app.ctx.jobRuns.settled();
    await closeCpuPool();
    if (options.closeDatabase) await database.close();
  });
  useSplitValidation(app);
  acceptJsonBodies(app);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(404, `No route ${request.method} ${request.url.split('?')[0]}`));
  });
  // A line per request costs more than answering it: only at the levels that ask for it.
  if (['debug', 'trace'].includes(config.logLevel)) {
    app.addHook('onResponse', async (request, reply) => {
      request.log.debug(
        { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
        'request',
      );
    });
  }

  await registerOpenApi(app, config.publicUrl);
  // Off unless configured: browsers then refuse other origins' calls, as they should.
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      exposedHeaders: ['Retry-After'],
      maxAge: 600,
    });
  }

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return { status: 'ok' };
    } catch {
      return reply.code(503).send(errorBody(503, 'The database is not reachable'));
    }
  });

  await app.register(fileDownloadRoutes);
  // Before every route: at a site's custom hostname, each page is the site's.
  app.addHook('onRequest', siteHostnameHook(app.ctx));
  await app.register(readerRoutes);
  await app.register(webAppRoutes, { directory: options.webAppDirectory });
  await app.register(signInRoutes);
  await app.register(samlServiceRoutes);
  await app.register(oidcServiceRoutes);
  await app.register(passwordResetRoutes);
  await app.register(integrationAssetRoutes);
  await app.register(integrationFetchRoutes);
  await app.register(gitWebhookRoutes);
  await app.register(publishedUrlRoutes, { prefix: '/v1' });
  await app.register(
    async (v1) => {
      requireBearerToken(v1);
      tagPublishedReads(v1);
      await limitRequestsPerToken(v1, config.rateLimitPerMinute);
      await v1.register(userRoutes);
      await v1.register(accountRoutes);
      await v1.register(organizationRoutes);
      await v1.register(memberRoutes);
      await v1.register(teamRoutes);
      await v1.register(inviteRoutes);
      await v1.register(emailInviteRoutes);
      await v1.register(collectionRoutes);
      await v1.register(spaceRoutes);
      await v1.register(customFieldRoutes);
      await v1.register(siteRoutes);
      await v1.register(siteSectionRoutes);
      await v1.register(siteSpaceRoutes);
      await v1.register(siteRedirectRoutes);
      await v1.register(spaceGitRoutes);
      await v1.register(changeRequestRoutes);
      await v1.register(contentReadRoutes);
      await v1.register(commentRoutes);
      await v1.register(searchRoutes);
      await v1.register(linkRoutes);
      await v1.register(importRoutes);
      await v1.register(samlRoutes);
      await v1.register(oidcRoutes);
      await v1.register(openApiSpecRoutes);
      await v1.register(translationRoutes);
      await v1.register(integrationRoutes);
    },
    { prefix: '/v1' },
  );

  return app;
}
