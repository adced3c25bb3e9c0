// Serves the browser app (web/, built by ./build.ts): its one page at every path the
// app answers, which are the `urls.app` the API hands out, and its hashed assets. The
// page is the same for everyone and holds no data: the app asks the API for that, as
// the signed-in person. Also the icons pages and inlines name (lib/icons.ts), for the app
// to draw and pick from. Hidden from the API document: these are pages, not operations.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { errorBody } from '../errors.ts';
import { policyHeader } from '../lib/contentSecurityPolicy.ts';
import { iconIndexJson, iconSvg } from '../lib/icons.ts';
import { webAppDirectory } from './build.ts';

/** The app's paths (the contract in docs/app.md); every other path is the API's or a site's. */
export const APP_PATHS = ['/', '/setup', '/sign-in', '/sign-in/*', '/invite/*', '/account', '/o/*', '/s/*', '/integrations/*'];

/** No inline script and no other origin's; Mantine sets styles inline. */
const POLICY = policyHeader({
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'https:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
});

const NOT_BUILT =
  "Quire's app has not been built on this server. Start Quire with `npm start`, which builds it, or run `npm run build:web`; then reload this page.\n";

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface WebAppOptions {
  /** The built app's directory; undefined: the build of web/'s current sources; null: none (the app's paths answer 503). */
  directory?: string | null;
}

export const webAppRoutes: FastifyPluginAsync<WebAppOptions> = async (app, options) => {
  const directory = options.directory === undefined ? webAppDirectory() : (options.directory ?? undefined);
  const page = directory ? readFileSync(join(directory, 'index.html')) : undefined;
  const assets = new Set(directory ? readdirSync(join(directory, 'assets')) : []);

  const shell = async (_request: unknown, reply: FastifyReply) => {
    if (!page) return reply.code(503).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT);
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      // Always asked again: a new build names new assets.
      .header('cache-control', 'no-cache')
      .header('content-security-policy', POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .send(page);
  };
  for (const path of APP_PATHS) app.get(path, { schema: { hide: true } }, shell);

  app.get<{ Params: { name: string } }>('/app/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params;
    if (!directory || !assets.has(name) || name.endsWith('.gz')) return reply.code(404).send(errorBody(404, `No asset ${name}`));
    const gzipped = assets.has(`${name}.gz`) && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    return reply
      .header('content-type', CONTENT_TYPES[extname(name)] ?? 'application/octet-stream')
      // Named by their content's hash: a changed file is a new name.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('vary', 'accept-encoding')
      .headers(gzipped ? { 'content-encoding': 'gzip' } : {})
      .send(createReadStream(join(directory, 'assets', gzipped ? `${name}.gz` : name)));
  });

  // Font Awesome Free's, which change only with the package: a day's cache.
  app.get<{ Params: { file: string } }>('/app/icons/:file', { schema: { hide: true } }, async (request, reply) => {
    const svg = /^(.+)\.svg$/.exec(request.params.file) && iconSvg(request.params.file.slice(0, -4));
    if (!svg) return reply.code(404).send(errorBody(404, `No icon ${request.params.file}: icons are Font Awesome Free's, by name, such as rocket.svg`));
    return reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=86400').header('x-content-type-options', 'nosniff').send(svg);
  });
  let index: Buffer | undefined;
  app.get('/app/icons.json', { schema: { hide: true } }, async (request, reply) => {
    // 0.3 MB of JSON, a tenth of it gzipped: the picker's first opening waits for it.
    index ??= gzipSync(iconIndexJson());
    const gzipped = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .header('vary', 'accept-encoding')
      .headers(gzipped ? { 'content-encoding': 'gzip' } : {})
      .send(gzipped ? index : iconIndexJson());
  });
};
