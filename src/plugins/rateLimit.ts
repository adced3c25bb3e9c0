// Per-token rate limiting for the API: each API token may make `perMinute` requests
// in each minute's window, counted in this process. The limiter's hook is attached to
// each route, so it runs after the scope's authentication hook and counts tokens, not
// addresses; a request without a valid token is refused before it is counted.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { TooManyRequests } from '../errors.ts';

export async function limitRequestsPerToken(app: FastifyInstance, perMinute: number): Promise<void> {
  if (perMinute === 0) return;
  await app.register(rateLimit, {
    hook: 'onRequest',
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => request.actor.tokenId,
    errorResponseBuilder: (_request, context) =>
      new TooManyRequests(
        `Rate limit of ${context.max} requests a minute for this API token reached; retry in ${context.after}`,
      ),
  });
}
