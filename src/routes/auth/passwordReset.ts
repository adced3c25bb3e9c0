// POST /auth/password-reset: asking for a sign-in link by e-mail, to set a new password.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestPasswordReset } from '../../services/passwordReset.ts';
import { errors } from '../schemas.ts';

const PasswordResetBody = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254, description: 'The address of the account whose password is forgotten' }),
});

export const passwordResetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.post(
    '/auth/password-reset',
    {
      schema: {
        tags: ['sign-in'],
        operationId: 'requestPasswordReset',
        summary:
          'E-mail a one-time sign-in link to set a new password, when the address has an account and Quire sends mail; the answer is the same for every address',
        security: [],
        body: PasswordResetBody,
        response: { 202: Type.Object({}, { description: 'Asked; a mail follows if the address has an account' }), ...errors(400, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await requestPasswordReset(ctx, request.body.email)),
  );
};
