// /v1/orgs/{organizationId}/sites/{siteId}/sections and /section-groups.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  addSection,
  addSectionToGroup,
  createSectionGroup,
  listSectionGroups,
  listSections,
  moveSection,
  moveSectionGroup,
  patchSection,
  patchSectionGroup,
  removeSection,
  removeSectionFromGroup,
  removeSectionGroup,
} from '../../services/siteSections.ts';
import { IdParam, NoContent, OrganizationIdParam, PageQuery, errors, listOf } from '../schemas.ts';
import { Icon, NullableCondition, ReadCredentialsQuery, SectionGroupSchema, SectionSchema, SiteParams } from '../sites/schemas.ts';

const SectionParams = Type.Object({
  organizationId: OrganizationIdParam,
  siteId: IdParam('The unique id of the site'),
  siteSectionId: IdParam('The unique id of the section'),
});
const GroupParams = Type.Object({
  organizationId: OrganizationIdParam,
  siteId: IdParam('The unique id of the site'),
  siteSectionGroupId: IdParam('The unique id of the section group'),
});
const GroupSectionParams = Type.Object({
  organizationId: OrganizationIdParam,
  siteId: IdParam('The unique id of the site'),
  siteSectionGroupId: IdParam('The unique id of the section group'),
  siteSectionId: IdParam('The unique id of the section'),
});

const Pointer = Type.Object({
  type: Type.Unsafe<'site-section' | 'site-section-group'>({ type: 'string', enum: ['site-section', 'site-section-group'] }),
  id: Type.Optional(IdParam('The item')),
  siteSection: Type.Optional(IdParam('The section')),
  siteSectionGroup: Type.Optional(IdParam('The section group')),
});
const MoveBody = Type.Object({
  position: Type.Optional(
    Type.Object(
      { before: Type.Optional(Pointer), after: Type.Optional(Pointer) },
      { description: 'Beside a sibling of the same level; omitted: at the end' },
    ),
  ),
});
const GroupTitle = Type.String({ minLength: 1, maxLength: 100 });

export const siteSectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.get(
    '/orgs/:organizationId/sites/:siteId/sections',
    {
      schema: {
        tags: ['sites'],
        operationId: 'listSiteSections',
        summary: 'List the sections of a site in reading order',
        params: SiteParams,
        querystring: Type.Object({ ...PageQuery, ...ReadCredentialsQuery }),
        response: { 200: listOf(SectionSchema), ...errors(404) },
      },
    },
    (request) => listSections(ctx, request.actor, request.params.organizationId, request.params.siteId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/sections',
    {
      schema: {
        tags: ['sites'],
        operationId: 'addSectionToSite',
        summary: 'Add a section holding a space; the first section takes in the site spaces the site held directly',
        params: SiteParams,
        body: Type.Object({
          spaceId: IdParam('The space the section starts with'),
          title: Type.Optional(Type.Unsafe<string | null>({ type: 'string', minLength: 1, maxLength: 64, nullable: true })),
          icon: Type.Optional(Icon),
        }),
        response: { 201: SectionSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await addSection(ctx, request.actor, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'updateSiteSectionById',
        summary: 'Change a section',
        params: SectionParams,
        body: Type.Object({
          title: Type.Optional(Type.String({ minLength: 2, maxLength: 128 })),
          path: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          defaultSiteSpace: Type.Optional(IdParam('A site space of this section')),
          condition: Type.Optional(NullableCondition),
          icon: Type.Optional(Icon),
          description: Type.Optional(Type.Unsafe<string | null>({ type: 'string', maxLength: 256, nullable: true })),
        }),
        response: { 200: SectionSchema, ...errors(403, 404, 409) },
      },
    },
    (request) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      return patchSection(ctx, request.actor, organizationId, siteId, siteSectionId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'deleteSiteSectionById',
        summary: 'Delete a section and its site spaces (never the spaces)',
        params: SectionParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      await removeSection(ctx, request.actor, organizationId, siteId, siteSectionId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move',
    {
      schema: {
        tags: ['sites'],
        operationId: 'moveSiteSection',
        summary: 'Move a section among the items of its level',
        params: SectionParams,
        body: Type.Optional(MoveBody),
        response: { 200: SectionSchema, ...errors(403, 404) },
      },
    },
    (request) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      return moveSection(ctx, request.actor, organizationId, siteId, siteSectionId, request.body?.position);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/section-groups',
    {
      schema: {
        tags: ['sites'],
        operationId: 'listSiteSectionGroups',
        summary: 'List the section groups of a site in order',
        params: SiteParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(SectionGroupSchema), ...errors(404) },
      },
    },
    (request) => listSectionGroups(ctx, request.actor, request.params.organizationId, request.params.siteId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/section-groups',
    {
      schema: {
        tags: ['sites'],
        operationId: 'addSectionGroupToSite',
        summary: 'Create a section group, optionally with sections',
        params: SiteParams,
        body: Type.Object({
          title: GroupTitle,
          icon: Type.Optional(Icon),
          sections: Type.Optional(Type.Array(IdParam('A section of the site'), { maxItems: 100 })),
        }),
        response: { 201: SectionGroupSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSectionGroup(ctx, request.actor, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'updateSiteSectionGroupById',
        summary: 'Change a section group',
        params: GroupParams,
        body: Type.Object({ title: Type.Optional(GroupTitle), icon: Type.Optional(Icon) }),
        response: { 200: SectionGroupSchema, ...errors(403, 404) },
      },
    },
    (request) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      return patchSectionGroup(ctx, request.actor, organizationId, siteId, siteSectionGroupId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'deleteSiteSectionGroupById',
        summary: 'Delete a section group; its sections stay where it was',
        params: GroupParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      await removeSectionGroup(ctx, request.actor, organizationId, siteId, siteSectionGroupId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections',
    {
      schema: {
        tags: ['sites'],
        operationId: 'addSectionToGroup',
        summary: 'Put a section at the end of a group',
        params: GroupParams,
        body: Type.Object({ sectionId: IdParam('A section of the site') }),
        response: { 201: SectionGroupSchema, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      return reply
        .code(201)
        .send(await addSectionToGroup(ctx, request.actor, organizationId, siteId, siteSectionGroupId, request.body.sectionId));
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId',
    {
      schema: {
        tags: ['sites'],
        operationId: 'removeSectionFromGroup',
        summary: 'Take a section out of a group, to the end of the top level',
        params: GroupSectionParams,
        response: { 204: NoContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId, siteSectionId } = request.params;
      await removeSectionFromGroup(ctx, request.actor, organizationId, siteId, siteSectionGroupId, siteSectionId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move',
    {
      schema: {
        tags: ['sites'],
        operationId: 'moveSiteSectionGroup',
        summary: 'Move a section group among the top-level items of the site',
        params: GroupParams,
        body: Type.Optional(MoveBody),
        response: { 200: SectionGroupSchema, ...errors(403, 404) },
      },
    },
    (request) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      return moveSectionGroup(ctx, request.actor, organizationId, siteId, siteSectionGroupId, request.body?.position);
    },
  );
};
