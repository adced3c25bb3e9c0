// The OpenAPI document generated from the route schemas (/openapi.json) and a
// browsable reference (/docs) served from local assets.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Quire API',
        version: '1.0.0',
        description:
          "Quire's REST API, compatible with GitBook's. Authenticate with `Authorization: Bearer <token>`, or in the app with the session cookie that the `sign-in` operations set.",
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // The app's browser session (/auth/*); writes with it also need its X-CSRF-Token.
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'quire_session', description: 'The session cookie that signing in sets (/auth/sign-in); a write made with it must also send X-CSRF-Token' },
          // Git hosts sign push webhooks with the space's secret (GitHub's header named; GitLab, Gitea and Bitbucket send theirs).
          gitWebhookSignature: { type: 'apiKey', in: 'header', name: 'X-Hub-Signature-256', description: "The space's Git Sync webhook secret: GitHub's or Bitbucket's HMAC-SHA256 signature of the body, Gitea's X-Gitea-Signature, or GitLab's X-Gitlab-Token" },
        },
      },
      security: [{ bearer: [] }, { sessionCookie: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/openapi.json' } as never });
  // The reference's "Try it out" calls the address the reader opened it at, then the configured one.
  app.get('/openapi.json', { schema: { hide: true } }, (request) => {
    const own = `${request.protocol}://${request.host}`;
    return { ...app.swagger(), servers: [...new Set([own, publicUrl])].map((url) => ({ url })) };
  });
}
