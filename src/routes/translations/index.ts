// /v1/orgs/{organizationId}/translations: an organization's translation settings.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../../lib/languages.ts';
import {
  createTranslationSettings,
  getTranslationSettings,
  listTranslationSettings,
  removeTranslationSettings,
  replaceTranslationSettings,
} from '../../services/translations.ts';
import { IdParam, NoContent, OrganizationIdParam, OrganizationParams, PageQuery, errors, listOf } from '../schemas.ts';

const Language = Type.Unsafe<TranslationLanguage>({ type: 'string', enum: [...TRANSLATION_LANGUAGES], description: 'A language code' });
const SettingsBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 100, description: 'Name of these settings' }),
  languages: Type.Optional(Type.Array(Language, { maxItems: TRANSLATION_LANGUAGES.length, description: 'Languages to translate into' })),
});
const TranslationSettingsSchema = Type.Object({
  object: Type.Literal('translation-settings'),
  id: Type.String(),
  title: Type.String(),
  languages: Type.Array(Language),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
const SettingsParams = Type.Object({
  organizationId: OrganizationIdParam,
  translationSettingsId: IdParam('The unique id of the translation settings'),
});

export const translationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/translations',
    {
      schema: {
        tags: ['translations'],
        operationId: 'listTranslations',
        summary: 'List the translation settings of an organization',
        params: OrganizationParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(TranslationSettingsSchema), ...errors(403, 404) },
      },
    },
    (request) => listTranslationSettings(ctx, request.actor, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/translations',
    {
      schema: {
        tags: ['translations'],
        operationId: 'createTranslation',
        summary: 'Create translation settings (administrators)',
        params: OrganizationParams,
        body: SettingsBody,
        response: { 201: TranslationSettingsSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createTranslationSettings(ctx, request.actor, request.params.organizationId, request.body)),
  );

  app.get(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      schema: {
        tags: ['translations'],
        operationId: 'getTranslation',
        summary: 'Get translation settings',
        params: SettingsParams,
        response: { 200: TranslationSettingsSchema, ...errors(403, 404) },
      },
    },
    (request) =>
      getTranslationSettings(ctx, request.actor, request.params.organizationId, request.params.translationSettingsId),
  );

  app.put(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      schema: {
        tags: ['translations'],
        operationId: 'updateTranslation',
        summary: 'Replace the title (and languages, when given) of translation settings (administrators)',
        params: SettingsParams,
        body: SettingsBody,
        response: { 200: TranslationSettingsSchema, ...errors(403, 404) },
      },
    },
    (request) =>
      replaceTranslationSettings(ctx, request.actor, request.params.organizationId, request.params.translationSettingsId, request.body),
  );

  app.delete(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      schema: {
        tags: ['translations'],
        operationId: 'deleteTranslation',
        summary: 'Delete translation settings (administrators)',
        params: SettingsParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await removeTranslationSettings(ctx, request.actor, request.params.organizationId, request.params.translationSettingsId);
      return reply.code(204).send();
    },
  );
};
