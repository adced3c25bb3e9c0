// The permission matrix: every operation of Quire's /openapi.json, and what each kind
// of caller gets from it. permissions.test.ts plays every row against a live app and
// fails on any cell that differs, and on any operation missing from this table.
//
// Columns, left to right:
//   anon     no Authorization header
//   bad      a token Quire never issued
//   out      the administrator of another organization
//   guest    a guest of the organization (no organization role) granted "edit" on the space
//   read … admin   members of the organization with that role
//
// A second pass plays every row once more as "out" after the site shows S publicly
// (public and published): `published` is that cell where it differs from "out"'s.
// Publishing opens S's published content (its current revision and the space without
// private fields), never its drafts, comments or anything else.
//
// Cells: 2xx (any success), 401, 403 or 404. The objects named in a path are the
// fixture's (see buildWorld): space S is private (visible to members), sits at the
// top level, and holds a merged page with a file; change request X is open on S with
// its own page and file; the site is unpublished. Rows that change or remove their
// target get a fresh one for every caller (`fresh`), so each cell is decided alone.
import type { TestApp } from '../helpers/app.ts';
import { request } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';
import { upsertGrant } from '../../src/db/repos/grants.ts';
import { createSignInLink } from '../../src/services/sessions.ts';

export const CALLERS = ['anon', 'bad', 'out', 'guest', 'read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type CallerName = (typeof CALLERS)[number];

export interface World {
  tokens: Record<CallerName, string | undefined>;
  users: Record<'guest' | 'read' | 'admin' | 'out', string>;
  /** The e-mail addresses of the organization's people, which no outsider may ever read. */
  memberEmails: string[];
  params: Record<string, string>;
  /** An organization where the fixture's admin is admin too, for transfers. */
  sharedOrganizationId: string;
}

type Params = Record<string, string>;
export interface Row {
  /** "METHOD /path" exactly as in /openapi.json. */
  operation: string;
  /** One cell per caller, in CALLERS order. */
  expect: string;
  /** The "out" cell once S is on a public, published site, where it differs. */
  published?: string;
  /** The request body; `params` are the fixture's with this caller's fresh ones over them. */
  body?: (world: World, params: Params) => unknown;
  query?: Record<string, string>;
  /** Creates this row's own target before each caller's request; answers path parameters to use. */
  fresh?: (world: World, app: TestApp) => Promise<Params>;
  /** Puts the fixture back after a caller changed it in a way later rows would see. */
  after?: (world: World, app: TestApp, caller: CallerName) => Promise<void>;
}

async function as(app: TestApp, token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
  const response = await request(app.app, method, url, { token, body });
  if (response.status >= 300) throw new Error(`fixture ${method} ${url} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

const GIT_OPERATION = { url: 'http://127.0.0.1:1/docs.git', ref: 'refs/heads/main' };
const PAGE_MARKDOWN = '# Guide\n\nSee [the intro](intro.md).';
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

async function changeRequestWithContent(app: TestApp, token: string, spaceId: string) {
  const changeRequest = await as(app, token, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Fixture' });
  await as(app, token, 'POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, {
    changes: [
      { operation: 'insert_page', document: PAGE_MARKDOWN },
      { operation: 'insert_files', files: [{ name: 'dot.png', base64: PNG_1X1 }] },
    ],
  });
  return changeRequest.id as string;
}

const OPENAPI_TEXT = 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: "1"\npaths: {}\n';

/** A private integration of the organization: only its members with a role see it. */
const integrationManifest = (organizationId: string) => ({
  organization: organizationId,
  title: 'Matrix tool',
  description: 'An integration of the fixture',
  scopes: ['space:content:read'],
  script: 'export default {};',
  visibility: 'private',
});

async function processedSpec(app: TestApp, token: string, organizationId: string, slug: string) {
  for (let attempt = 0; attempt < 500; attempt++) {
    const spec = await as(app, token, 'GET', `/v1/orgs/${organizationId}/openapi/${slug}`);
    if (spec.processingState === 'complete') return spec;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`fixture OpenAPI spec ${slug} was not processed`);
}

export async function buildWorld(app: TestApp): Promise<World> {
  const organization = await buildOrganization(app, 'Matrix');
  const organizationId = organization.organizationId;
  const admin = organization.admin.token;
  const other = await buildOrganization(app, 'Elsewhere');
  const members: Record<string, { userId: string; token: string; email: string }> = {};
  for (const role of ['read', 'comment', 'edit', 'review', 'create'] as const) {
    members[role] = await buildMember(app, organizationId, role);
  }
  const guest = await buildMember(app, organizationId, 'read');
  await as(app, admin, 'PATCH', `/v1/orgs/${organizationId}/members/${guest.userId}`, { role: null });
  const shared = await as(app, admin, 'POST', '/v1/orgs', { title: 'Shared' });

  const collection = await as(app, admin, 'POST', `/v1/orgs/${organizationId}/collections`, { title: 'Guides' });
  const space = await as(app, admin, 'POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' });
  // Quire has no grant operation yet (api-spec.md has none); the grant is written as a creator grant is.
  await upsertGrant(app.database.db, {
    organization_id: organizationId,
    target_kind: 'space',
    target_id: space.id,
    user_id: guest.userId,
    role: 'edit',
    created_at: new Date().toISOString(),
  });
  const merged = await changeRequestWithContent(app, admin, space.id);
  await as(app, admin, 'POST', `/v1/spaces/${space.id}/change-requests/${merged}/merge`);
  const content = await as(app, admin, 'GET', `/v1/spaces/${space.id}/content`);
  const { id: pageId, documentId } = (await as(app, admin, 'GET', `/v1/spaces/${space.id}/content/pages`)).pages[0];
  // Read once by the admin, so the page's answers are kept as sent before the other callers ask for them.
  for (const format of ['markdown', 'document']) await as(app, admin, 'GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=${format}`);
  const fileId = (await as(app, admin, 'GET', `/v1/spaces/${space.id}/content/files`)).items[0].id;
  const changeRequestId = await changeRequestWithContent(app, admin, space.id);
  const changeRequestPageId = (await as(app, admin, 'GET', `/v1/spaces/${space.id}/change-requests/${changeRequestId}/content/pages`)).pages
    .map((page: { id: string }) => page.id)
    .find((id: string) => id !== pageId);
  const changeRequestFileId = (await as(app, admin, 'GET', `/v1/spaces/${space.id}/change-requests/${changeRequestId}/content/files`)).items
    .map((file: { id: string }) => file.id)
    .find((id: string) => id !== fileId);
  const comment = await as(app, admin, 'POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: 'A note' } });
  const reply = await as(app, admin, 'POST', `/v1/spaces/${space.id}/comments/${comment.id}/replies`, { body: { markdown: 'A reply' } });
  const crComments = `/v1/spaces/${space.id}/change-requests/${changeRequestId}/comments`;
  const crComment = await as(app, admin, 'POST', crComments, { body: { markdown: 'A review note' } });
  const crReply = await as(app, admin, 'POST', `${crComments}/${crComment.id}/replies`, { body: { markdown: 'A review reply' } });
  // A Git Sync connection, so that its info answers; the repository is refused (a private address) at once.
  await as(app, admin, 'POST', `/v1/spaces/${space.id}/git/import`, GIT_OPERATION);

  const team = await as(app, admin, 'PUT', `/v1/orgs/${organizationId}/teams`, { title: 'Writers' });
  const invite = await as(app, admin, 'POST', `/v1/orgs/${organizationId}/link-invites`, { role: 'read' });
  await as(app, admin, 'POST', `/v1/orgs/${organizationId}/custom-fields`, { name: 'owner', type: 'text', title: 'Owner' });

  const site = await as(app, admin, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Docs' });
  const sites = `/v1/orgs/${organizationId}/sites/${site.id}`;
  const section = await as(app, admin, 'POST', `${sites}/sections`, { spaceId: space.id, title: 'Handbook' });
  const group = await as(app, admin, 'POST', `${sites}/section-groups`, { title: 'Group' });
  const siteSpace = await as(app, admin, 'POST', `${sites}/site-spaces`, { spaceId: space.id, sectionId: section.id });
  const shareLink = await as(app, admin, 'POST', `${sites}/share-links`, { name: 'Partners' });
  const redirect = await as(app, admin, 'POST', `${sites}/redirects`, { source: '/old-handbook', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } });

  const samlProvider = await as(app, admin, 'POST', `/v1/orgs/${organizationId}/saml`, { label: 'Okta' });
  const oidcProvider = await as(app, admin, 'POST', `/v1/orgs/${organizationId}/oidc-providers`, OIDC_PROVIDER);
  await as(app, admin, 'POST', `/v1/orgs/${organizationId}/openapi`, { slug: 'petstore', source: { text: OPENAPI_TEXT } });
  const spec = await processedSpec(app, admin, organizationId, 'petstore');
  const translation = await as(app, admin, 'POST', `/v1/orgs/${organizationId}/translations`, { title: 'Docs' });
  await as(app, admin, 'POST', '/v1/integrations/matrix-tool', integrationManifest(organizationId));
  const installation = await as(app, admin, 'POST', '/v1/integrations/matrix-tool/installations', { organization: organizationId });
  await as(app, admin, 'POST', `/v1/integrations/matrix-tool/installations/${installation.id}/spaces`, { space: space.id });
  await as(app, admin, 'POST', `/v1/integrations/matrix-tool/installations/${installation.id}/sites`, { siteId: site.id });

  return {
    tokens: {
      anon: undefined,
      bad: 'gb_api_thisTokenWasNeverIssuedByQuire0000000',
      out: other.admin.token,
      guest: guest.token,
      read: members.read.token,
      comment: members.comment.token,
      edit: members.edit.token,
      review: members.review.token,
      create: members.create.token,
      admin,
    },
    users: { guest: guest.userId, read: members.read.userId, admin: organization.admin.userId, out: other.admin.userId },
    memberEmails: [organization.admin.email, guest.email, ...Object.values(members).map((member) => member.email)],
    sharedOrganizationId: shared.id,
    params: {
      organizationId,
      userId: members.read.userId,
      emailDomain: 'example.test',
      teamId: team.id,
      inviteId: invite.id,
      collectionId: collection.id,
      spaceId: space.id,
      fieldName: 'owner',
      siteId: site.id,
      siteSectionId: section.id,
      siteSectionGroupId: group.id,
      siteSpaceId: siteSpace.id,
      shareLinkId: shareLink.id,
      siteRedirectId: redirect.id,
      changeRequestId,
      revisionId: content.id,
      pageId,
      documentId,
      reusableContentId: 'none',
      fileId,
      '*': 'guide',
      commentId: comment.id,
      commentReplyId: reply.id,
      crPageId: changeRequestPageId,
      crFileId: changeRequestFileId,
      crCommentId: crComment.id,
      crCommentReplyId: crReply.id,
      samlProviderId: samlProvider.id,
      providerId: oidcProvider.id,
      specSlug: 'petstore',
      versionId: spec.lastVersion,
      translationSettingsId: translation.id,
      integrationName: 'matrix-tool',
      installationId: installation.id,
    },
  };
}

const admin = (world: World) => world.tokens.admin!;
const orgPath = (world: World) => `/v1/orgs/${world.params.organizationId}`;
const sitePath = (world: World) => `${orgPath(world)}/sites/${world.params.siteId}`;
const spacePath = (world: World) => `/v1/spaces/${world.params.spaceId}`;
let unique = 0;
const nextName = (prefix: string) => `${prefix}${++unique}`;
/** An OpenID provider as an administrator adds one; nothing fetches its issuer until someone signs in. */
const OIDC_PROVIDER = { label: 'Keycloak', issuer: 'https://login.example.test/realms/acme', clientId: 'quire', clientSecret: 'matrix secret' };

const fresh = {
  member: async (world: World, app: TestApp) => ({ userId: (await buildMember(app, world.params.organizationId, 'read')).userId }),
  team: async (world: World, app: TestApp) => {
    const team = await as(app, admin(world), 'PUT', `${orgPath(world)}/teams`, { title: nextName('Team ') });
    await as(app, admin(world), 'PUT', `${orgPath(world)}/teams/${team.id}/members/${world.users.read}`, {});
    return { teamId: team.id };
  },
  invite: async (world: World, app: TestApp) => ({
    inviteId: (await as(app, admin(world), 'POST', `${orgPath(world)}/link-invites`, { role: null })).id,
  }),
  /** A session of the fixture's admin, opened through a one-time sign-in link. */
  session: async (world: World, app: TestApp) => {
    const { token } = await app.app.ctx.db.transaction().execute((trx) => createSignInLink(app.app.ctx, trx, world.users.admin));
    return { sessionId: (await as(app, '', 'POST', '/auth/sign-in-link', { token })).session.id };
  },
  apiToken: async (world: World, app: TestApp) => ({
    tokenId: (await as(app, admin(world), 'POST', '/v1/user/tokens', { label: nextName('Token '), scope: 'read' })).id,
  }),
  collection: async (world: World, app: TestApp) => ({
    collectionId: (await as(app, admin(world), 'POST', `${orgPath(world)}/collections`, { title: nextName('Collection ') })).id,
  }),
  space: async (world: World, app: TestApp) => ({
    spaceId: (await as(app, admin(world), 'POST', `${orgPath(world)}/spaces`, { title: nextName('Space ') })).id,
  }),
  /** The space's Git Sync connection, made again for each caller (a disconnect forgets it). */
  gitSync: async (world: World, app: TestApp) => {
    await as(app, admin(world), 'POST', `/v1/spaces/${world.params.spaceId}/git/import`, GIT_OPERATION);
    return {};
  },
  deletedSpace: async (world: World, app: TestApp) => {
    const { spaceId } = await fresh.space(world, app);
    await as(app, admin(world), 'DELETE', `/v1/spaces/${spaceId}`);
    return { spaceId };
  },
  field: async (world: World, app: TestApp) => {
    const name = nextName('field');
    await as(app, admin(world), 'POST', `${orgPath(world)}/custom-fields`, { name, type: 'text', title: name });
    return { fieldName: name };
  },
  site: async (world: World, app: TestApp) => ({
    siteId: (await as(app, admin(world), 'POST', `${orgPath(world)}/sites`, { title: nextName('Site ') })).id,
  }),
  shareLink: async (world: World, app: TestApp) => ({
    shareLinkId: (await as(app, admin(world), 'POST', `${sitePath(world)}/share-links`, { name: nextName('Link ') })).id,
  }),
  section: async (world: World, app: TestApp) => ({
    siteSectionId: (await as(app, admin(world), 'POST', `${sitePath(world)}/sections`, { spaceId: world.params.spaceId, title: nextName('Section ') })).id,
  }),
  redirect: async (world: World, app: TestApp) => ({
    siteRedirectId: (
      await as(app, admin(world), 'POST', `${sitePath(world)}/redirects`, { source: `/${nextName('old-')}`, destination: { kind: 'site-space', siteSpaceId: world.params.siteSpaceId } })
    ).id,
  }),
  sectionGroup: async (world: World, app: TestApp) => ({
    siteSectionGroupId: (await as(app, admin(world), 'POST', `${sitePath(world)}/section-groups`, { title: nextName('Group ') })).id,
  }),
  groupedSection: async (world: World, app: TestApp) => {
    const { siteSectionId } = await fresh.section(world, app);
    await as(app, admin(world), 'POST', `${sitePath(world)}/section-groups/${world.params.siteSectionGroupId}/sections`, { sectionId: siteSectionId });
    return { siteSectionId };
  },
  siteSpace: async (world: World, app: TestApp) => ({
    siteSpaceId: (
      await as(app, admin(world), 'POST', `${sitePath(world)}/site-spaces`, { spaceId: world.params.spaceId, sectionId: world.params.siteSectionId })
    ).id,
  }),
  changeRequest: async (world: World, app: TestApp) => ({
    changeRequestId: (await as(app, admin(world), 'POST', `${spacePath(world)}/change-requests`, { subject: nextName('Change ') })).id,
  }),
  changeRequestWithContent: async (world: World, app: TestApp) => ({
    changeRequestId: await changeRequestWithContent(app, admin(world), world.params.spaceId),
  }),
  comment: async (world: World, app: TestApp) => ({
    commentId: (await as(app, admin(world), 'POST', `${spacePath(world)}/comments`, { body: { markdown: 'Fresh' } })).id,
  }),
  reply: async (world: World, app: TestApp) => ({
    commentReplyId: (
      await as(app, admin(world), 'POST', `${spacePath(world)}/comments/${world.params.commentId}/replies`, { body: { markdown: 'Fresh' } })
    ).id,
  }),
  crComment: async (world: World, app: TestApp) => ({
    commentId: (
      await as(app, admin(world), 'POST', `${spacePath(world)}/change-requests/${world.params.changeRequestId}/comments`, { body: { markdown: 'Fresh' } })
    ).id,
  }),
  crReply: async (world: World, app: TestApp) => ({
    commentId: world.params.crCommentId,
    commentReplyId: (
      await as(app, admin(world), 'POST', `${spacePath(world)}/change-requests/${world.params.changeRequestId}/comments/${world.params.crCommentId}/replies`, {
        body: { markdown: 'Fresh' },
      })
    ).id,
  }),
  samlProvider: async (world: World, app: TestApp) => ({
    samlProviderId: (await as(app, admin(world), 'POST', `${orgPath(world)}/saml`, { label: nextName('IdP ') })).id,
  }),
  oidcProvider: async (world: World, app: TestApp) => ({
    providerId: (await as(app, admin(world), 'POST', `${orgPath(world)}/oidc-providers`, { ...OIDC_PROVIDER, label: nextName('OIDC ') })).id,
  }),
  spec: async (world: World, app: TestApp) => {
    const specSlug = nextName('spec-');
    await as(app, admin(world), 'POST', `${orgPath(world)}/openapi`, { slug: specSlug, source: { text: OPENAPI_TEXT } });
    return { specSlug };
  },
  translation: async (world: World, app: TestApp) => ({
    translationSettingsId: (await as(app, admin(world), 'POST', `${orgPath(world)}/translations`, { title: nextName('Docs ') })).id,
  }),
  integration: async (world: World, app: TestApp) => {
    const integrationName = nextName('tool-');
    await as(app, admin(world), 'POST', `/v1/integrations/${integrationName}`, integrationManifest(world.params.organizationId));
    return { integrationName };
  },
  installation: async (world: World, app: TestApp) => {
    const { integrationName } = await fresh.integration(world, app);
    const installation = await as(app, admin(world), 'POST', `/v1/integrations/${integrationName}/installations`, {
      organization: world.params.organizationId,
    });
    return { integrationName, installationId: installation.id as string };
  },
  siteInstallation: async (world: World, app: TestApp) => {
    const params = await fresh.installation(world, app);
    await as(app, admin(world), 'POST', `/v1/integrations/${params.integrationName}/installations/${params.installationId}/sites`, { siteId: world.params.siteId });
    return params;
  },
  spaceInstallation: async (world: World, app: TestApp) => {
    const params = await fresh.installation(world, app);
    await as(app, admin(world), 'POST', `/v1/integrations/${params.integrationName}/installations/${params.installationId}/spaces`, {
      space: world.params.spaceId,
    });
    return params;
  },
};

/** Change-request content and comments name the change request's own page, file and comment. */
const inChangeRequest = (names: Partial<Record<'pageId' | 'fileId' | 'commentId' | 'commentReplyId', string>>) => async (world: World) =>
  Object.fromEntries(Object.entries(names).map(([name, source]) => [name, world.params[source!]]));

// prettier-ignore
export const MATRIX: Row[] = [
  // users and organizations                                          anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/user',                                       expect: '401 401 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/users/{userId}',                             expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/orgs',                                       expect: '401 401 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/orgs',                                      expect: '401 401 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx', body: () => ({ title: 'Side project' }) },
  { operation: 'GET /v1/orgs/{organizationId}',                      expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PATCH /v1/orgs/{organizationId}',                    expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ title: 'Matrix' }) },
  { operation: 'GET /v1/email-domains/{emailDomain}/orgs',           expect: '401 401 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  // one's own sessions, tokens and password: each caller sees and changes only their own
  { operation: 'GET /v1/user/sessions',                              expect: '401 401 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'DELETE /v1/user/sessions/{sessionId}',               expect: '401 401 404 404 404 404 404 404 404 2xx', fresh: fresh.session },
  { operation: 'GET /v1/user/tokens',                                expect: '401 401 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/user/tokens',                               expect: '401 401 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx', body: () => ({ label: nextName('Token '), scope: 'read' }) },
  { operation: 'DELETE /v1/user/tokens/{tokenId}',                   expect: '401 401 404 404 404 404 404 404 404 2xx', fresh: fresh.apiToken },
  { operation: 'PUT /v1/user/password',                              expect: '401 401 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx', body: () => ({ currentPassword: 'matrix password', password: 'matrix password' }) },
  // members                                                          anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/orgs/{organizationId}/members',              expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/members/{userId}',     expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PATCH /v1/orgs/{organizationId}/members/{userId}',   expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.member, body: () => ({ role: 'comment' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/members/{userId}',  expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.member },
  { operation: 'POST /v1/orgs/{organizationId}/members/{userId}/sso', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.member },
  { operation: 'POST /v1/orgs/{organizationId}/ping',                expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/members/{userId}/spaces', expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/members/{userId}/teams', expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },

  // teams (changed by organization admins and the team's owners)     anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/orgs/{organizationId}/teams',                expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PUT /v1/orgs/{organizationId}/teams',                expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ title: nextName('Team ') }) },
  { operation: 'GET /v1/orgs/{organizationId}/teams/{teamId}',       expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PATCH /v1/orgs/{organizationId}/teams/{teamId}',     expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ title: 'Writers' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/teams/{teamId}',    expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.team },
  { operation: 'GET /v1/orgs/{organizationId}/teams/{teamId}/members', expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PUT /v1/orgs/{organizationId}/teams/{teamId}/members', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.team, body: (world) => ({ add: [world.users.admin] }) },
  { operation: 'PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.team, body: () => ({}) },
  // A member may always leave a team: the fixture's userId is the "read" member.
  { operation: 'DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', expect: '401 401 404 403 2xx 403 403 403 403 2xx', fresh: fresh.team },

  // link invites: the invite id is the secret that lets anyone join    anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/orgs/{organizationId}/link-invites',         expect: '401 401 404 403 403 403 403 403 403 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/link-invites',        expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ role: 'read' }) },
  { operation: 'POST /v1/orgs/{organizationId}/invites',             expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ emails: [`${nextName('invitee')}@example.test`] }) },
  { operation: 'GET /v1/orgs/{organizationId}/link-invites/{inviteId}', expect: '401 401 404 403 403 403 403 403 403 2xx' },
  { operation: 'PATCH /v1/orgs/{organizationId}/link-invites/{inviteId}', expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ role: 'read' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.invite },
  {
    operation: 'POST /v1/orgs/{organizationId}/invites/{inviteId}', expect: '401 401 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx',
    fresh: fresh.invite,
    after: async (world, app, caller) => {
      if (caller === 'out') await as(app, admin(world), 'DELETE', `${orgPath(world)}/members/${world.users.out}`);
    },
  },

  // sign-in (/auth/*): open to anyone, each its own proof; a Bearer token changes nothing there
  { operation: 'GET /auth/state',                                    expect: '2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /auth/setup',                                   expect: '409 409 409 409 409 409 409 409 409 409', body: () => ({ organization: 'Second', name: 'Eve', email: `${nextName('eve')}@example.test`, password: 'long enough' }) },
  { operation: 'POST /auth/sign-in',                                 expect: '401 401 401 401 401 401 401 401 401 401', body: () => ({ email: `${nextName('nobody')}@example.test`, password: 'wrong password' }) },
  { operation: 'POST /auth/sign-out',                                expect: '2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /auth/sign-in-link',                            expect: '400 400 400 400 400 400 400 400 400 400', body: () => ({ token: 'never-issued' }) },
  { operation: 'GET /auth/invites/{organizationId}/{inviteId}',      expect: '2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /auth/invites/{organizationId}/{inviteId}/accept', expect: '2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx', fresh: fresh.invite, body: () => ({ name: 'New', email: `${nextName('new')}@example.test`, password: 'long enough' }) },
  { operation: 'POST /auth/password-reset',                          expect: '2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx', body: () => ({ email: `${nextName('forgetful')}@example.test` }) },
  { operation: 'GET /auth/sso',                                      expect: '2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx', query: { email: 'someone@example.test' } },

  // collections: C is a top-level collection with default levels      anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/orgs/{organizationId}/collections',          expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/collections',         expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ title: nextName('Collection ') }) },
  { operation: 'GET /v1/collections/{collectionId}',                 expect: '401 401 404 404 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PATCH /v1/collections/{collectionId}',               expect: '401 401 404 404 403 403 403 403 403 2xx', body: () => ({ title: 'Guides' }) },
  { operation: 'DELETE /v1/collections/{collectionId}',              expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.collection },
  { operation: 'GET /v1/collections/{collectionId}/spaces',          expect: '401 401 404 404 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/collections/{collectionId}/move',           expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.collection, body: (world) => ({ parent: world.params.collectionId }) },
  { operation: 'POST /v1/collections/{collectionId}/transfer',       expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.collection, body: (world) => ({ organization: world.sharedOrganizationId }) },

  // spaces: S is private; the guest holds a direct "edit" grant on it   anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/orgs/{organizationId}/spaces',               expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/spaces',              expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ title: nextName('Space ') }) },
  { operation: 'GET /v1/spaces/{spaceId}',                           expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'PATCH /v1/spaces/{spaceId}',                         expect: '401 401 404 403 403 403 403 403 403 2xx', published: '403', body: () => ({ title: 'Handbook' }) },
  { operation: 'DELETE /v1/spaces/{spaceId}',                        expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.space },
  { operation: 'POST /v1/spaces/{spaceId}/restore',                  expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.deletedSpace },
  { operation: 'POST /v1/spaces/{spaceId}/purge',                    expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.deletedSpace },
  { operation: 'GET /v1/orgs/{organizationId}/trash',                expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/spaces/{spaceId}/duplicate',                expect: '401 401 404 403 403 403 403 403 2xx 2xx' },
  { operation: 'POST /v1/spaces/{spaceId}/move',                     expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.space, body: (world) => ({ parent: world.params.collectionId }) },
  { operation: 'POST /v1/spaces/{spaceId}/transfer',                 expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.space, body: (world) => ({ organization: world.sharedOrganizationId }) },

  // custom fields                                                      anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/orgs/{organizationId}/custom-fields',        expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/custom-fields',       expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ name: nextName('field'), type: 'text', title: 'Field' }) },
  { operation: 'GET /v1/orgs/{organizationId}/custom-fields/{fieldName}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PATCH /v1/orgs/{organizationId}/custom-fields/{fieldName}', expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ title: 'Owner' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/custom-fields/{fieldName}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.field },
  { operation: 'GET /v1/spaces/{spaceId}/custom-fields',             expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PATCH /v1/spaces/{spaceId}/custom-fields',           expect: '401 401 404 2xx 403 403 2xx 2xx 2xx 2xx', body: () => ({ values: { owner: { value: 'Ada' } } }) },

  // sites: unpublished; members see them, the create role manages them anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/orgs/{organizationId}/sites',                expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/sites',               expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ title: nextName('Site ') }) },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}',       expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'PATCH /v1/orgs/{organizationId}/sites/{siteId}',     expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ title: 'Docs' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/sites/{siteId}',    expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.site },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/publish', expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.site },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/unpublish', expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.site },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/structure', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/published', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/customization', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'PUT /v1/orgs/{organizationId}/sites/{siteId}/customization', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ title: 'Docs' }) },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ jsonSchema: { type: 'object', properties: {} } }) },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth', expect: '401 401 404 403 403 403 403 403 2xx 2xx' },
  { operation: 'PATCH /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ backend: 'custom', fallbackURL: 'https://login.example.com/' }) },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate', expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.site },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/share-links', expect: '401 401 404 403 403 403 403 403 2xx 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/share-links', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ name: nextName('Link ') }) },
  { operation: 'PATCH /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ name: 'Partners' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.shareLink },
  // redirects: the site's managers make them, its members list them; whoever may read the site resolves one
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/redirects', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/redirects', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: (world) => ({ source: `/${nextName('moved-')}`, destination: { kind: 'site-space', siteSpaceId: world.params.siteSpaceId } }) },
  { operation: 'PATCH /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ source: '/old-handbook' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.redirect },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/redirect', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx', query: { source: '/old-handbook' } },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/sections', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/sections', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: (world) => ({ spaceId: world.params.spaceId, title: nextName('Section ') }) },
  { operation: 'PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ title: 'Handbook' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.section },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({}) },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/section-groups', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ title: nextName('Group ') }) },
  { operation: 'PATCH /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ title: 'Group' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.sectionGroup },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections', expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.section, body: (_world, params) => ({ sectionId: params.siteSectionId }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.groupedSection },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({}) },
  { operation: 'GET /v1/orgs/{organizationId}/sites/{siteId}/site-spaces', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: (world) => ({ spaceId: world.params.spaceId, sectionId: world.params.siteSectionId }) },
  { operation: 'PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({ path: nextName('handbook-') }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', expect: '401 401 404 403 403 403 403 403 2xx 2xx', fresh: fresh.siteSpace },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move', expect: '401 401 404 403 403 403 403 403 2xx 2xx', body: () => ({}) },

  // change requests on S                                               anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/spaces/{spaceId}/change-requests',           expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/spaces/{spaceId}/change-requests',          expect: '401 401 404 2xx 403 403 2xx 2xx 2xx 2xx', body: () => ({ subject: 'New' }) },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}', expect: '401 401 404 2xx 403 403 2xx 2xx 2xx 2xx', body: () => ({ subject: 'Fixture' }) },
  { operation: 'POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', expect: '401 401 404 2xx 403 403 2xx 2xx 2xx 2xx', fresh: fresh.changeRequest, body: () => ({ changes: [{ operation: 'insert_page', document: '# Added' }] }) },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', expect: '401 401 404 403 403 403 403 2xx 2xx 2xx', fresh: fresh.changeRequestWithContent },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/update', expect: '401 401 404 2xx 403 403 2xx 2xx 2xx 2xx', fresh: fresh.changeRequest },

  // content of S, its revisions and change request X                    anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/spaces/{spaceId}/content',                   expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/content/pages',             expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/content/files',             expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/content/files/{fileId}',    expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/content/page/{pageId}',     expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/revisions/{revisionId}',    expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/revisions/{revisionId}/pages', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/revisions/{revisionId}/files', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', fresh: inChangeRequest({ fileId: 'crFileId' }) },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', fresh: inChangeRequest({ pageId: 'crPageId' }) },
  { operation: 'GET /v1/spaces/{spaceId}/content/path/{*}',          expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/revisions/{revisionId}/path/{*}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{*}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/content/page/{pageId}/document', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/document', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', fresh: inChangeRequest({ pageId: 'crPageId' }) },
  { operation: 'GET /v1/spaces/{spaceId}/content/page/{pageId}/meta-links', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', fresh: inChangeRequest({ pageId: 'crPageId' }) },
  // S's content holds no reusable content (they come from Git Sync: gitSync.test.ts reads them): an unknown id is 404 to those who may read the revision and to others alike.
  { operation: 'GET /v1/spaces/{spaceId}/content/reusable-contents/{reusableContentId}', expect: '401 401 404 404 404 404 404 404 404 404' },
  { operation: 'GET /v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}', expect: '401 401 404 404 404 404 404 404 404 404' },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}', expect: '401 401 404 404 404 404 404 404 404 404' },
  { operation: 'GET /v1/spaces/{spaceId}/content/reusable-contents/{reusableContentId}/document', expect: '401 401 404 404 404 404 404 404 404 404' },
  { operation: 'GET /v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document', expect: '401 401 404 404 404 404 404 404 404 404' },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}/document', expect: '401 401 404 404 404 404 404 404 404 404' },
  { operation: 'GET /v1/spaces/{spaceId}/documents/{documentId}',    expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx' },
  // An embed of a closed local port: a link named by its address, quickly.
  { operation: 'GET /v1/spaces/{spaceId}/embed',                     expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx', query: { url: 'http://127.0.0.1:9/' } },
  // The published content at a URL is everyone's to resolve, once the site is published.
  { operation: 'POST /v1/urls/published',                            expect: '404 404 404 404 404 404 404 404 404 404', published: '2xx', body: (world) => ({ url: `https://quire.test/sites/${world.params.siteId}/guide` }) },

  // website import (to a closed local port: it imports nothing, quickly)  anon bad out guest read comment edit review create admin
  { operation: 'POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import', expect: '401 401 404 2xx 403 403 2xx 2xx 2xx 2xx', fresh: fresh.changeRequest, body: () => ({ url: 'http://127.0.0.1:9/', source: 'website' }) },

  // links and backlinks                                               anon bad out guest read comment edit review create admin
  { operation: 'POST /v1/spaces/{spaceId}/git/import',                expect: '401 401 404 2xx 403 403 2xx 2xx 2xx 2xx', body: () => GIT_OPERATION },
  { operation: 'POST /v1/spaces/{spaceId}/git/export',                expect: '401 401 404 2xx 403 403 2xx 2xx 2xx 2xx', body: () => ({ ...GIT_OPERATION, commitMessage: 'Docs' }) },
  { operation: 'GET /v1/spaces/{spaceId}/git/info',                   expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  // Signed with the space's webhook secret or refused, whatever token comes with it.
  { operation: 'POST /v1/spaces/{spaceId}/git/webhook',               expect: '401 401 401 401 401 401 401 401 401 401', body: () => ({ ref: 'refs/heads/main' }) },
  { operation: 'DELETE /v1/spaces/{spaceId}/git',                     expect: '401 401 404 2xx 403 403 2xx 2xx 2xx 2xx', fresh: fresh.gitSync },
  { operation: 'GET /v1/spaces/{spaceId}/links',                     expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', fresh: inChangeRequest({ pageId: 'crPageId' }) },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', fresh: inChangeRequest({ fileId: 'crFileId' }) },

  // search: only what the caller can read                              anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/orgs/{organizationId}/search',               expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', query: { query: 'guide' } },
  { operation: 'GET /v1/spaces/{spaceId}/search',                    expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx', query: { query: 'guide' } },
  { operation: 'POST /v1/orgs/{organizationId}/sites/{siteId}/search', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', published: '2xx', body: () => ({ query: 'guide' }) },

  // comments on S: only authors change their words (fresh comments are the admin's)
  //                                                                    anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/spaces/{spaceId}/comments',                  expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/spaces/{spaceId}/comments',                 expect: '401 401 404 2xx 403 2xx 2xx 2xx 2xx 2xx', body: () => ({ body: { markdown: 'Hello' } }) },
  { operation: 'GET /v1/spaces/{spaceId}/comments/{commentId}',      expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PUT /v1/spaces/{spaceId}/comments/{commentId}',      expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.comment, body: () => ({ body: { markdown: 'Edited' } }) },
  { operation: 'DELETE /v1/spaces/{spaceId}/comments/{commentId}',   expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.comment },
  { operation: 'GET /v1/spaces/{spaceId}/comments/{commentId}/replies', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/spaces/{spaceId}/comments/{commentId}/replies', expect: '401 401 404 2xx 403 2xx 2xx 2xx 2xx 2xx', body: () => ({ body: { markdown: 'Agreed' } }) },
  { operation: 'GET /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PUT /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.reply, body: () => ({ body: { markdown: 'Edited' } }) },
  { operation: 'DELETE /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.reply },

  // comments on change request X                                       anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', expect: '401 401 404 2xx 403 2xx 2xx 2xx 2xx 2xx', body: () => ({ body: { markdown: 'Hello' } }) },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', fresh: inChangeRequest({ commentId: 'crCommentId' }) },
  { operation: 'PUT /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.crComment, body: () => ({ body: { markdown: 'Edited' } }) },
  { operation: 'DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.crComment },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', fresh: inChangeRequest({ commentId: 'crCommentId' }) },
  { operation: 'POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies', expect: '401 401 404 2xx 403 2xx 2xx 2xx 2xx 2xx', fresh: inChangeRequest({ commentId: 'crCommentId' }), body: () => ({ body: { markdown: 'Agreed' } }) },
  { operation: 'GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}', expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx', fresh: inChangeRequest({ commentId: 'crCommentId', commentReplyId: 'crCommentReplyId' }) },
  { operation: 'PUT /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.crReply, body: () => ({ body: { markdown: 'Edited' } }) },
  { operation: 'DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.crReply },
  // SSO: administrators only; the login choices are for every member    anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/orgs/{organizationId}/saml',                 expect: '401 401 404 403 403 403 403 403 403 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/saml',                expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ label: nextName('IdP ') }) },
  { operation: 'GET /v1/orgs/{organizationId}/saml/{samlProviderId}', expect: '401 401 404 403 403 403 403 403 403 2xx' },
  { operation: 'PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}', expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ label: 'Okta' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.samlProvider },
  { operation: 'GET /v1/orgs/{organizationId}/oidc-providers',       expect: '401 401 404 403 403 403 403 403 403 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/oidc-providers',      expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ ...OIDC_PROVIDER, label: nextName('OIDC ') }) },
  { operation: 'GET /v1/orgs/{organizationId}/oidc-providers/{providerId}', expect: '401 401 404 403 403 403 403 403 403 2xx' },
  { operation: 'PATCH /v1/orgs/{organizationId}/oidc-providers/{providerId}', expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ label: 'Keycloak' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/oidc-providers/{providerId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.oidcProvider },
  { operation: 'GET /v1/orgs/{organizationId}/sso',                  expect: '401 401 404 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },

  // OpenAPI specs and translation settings: members with a role read, administrators change
  //                                                                    anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/orgs/{organizationId}/openapi',              expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/openapi',             expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ slug: nextName('spec-'), source: { text: OPENAPI_TEXT } }) },
  { operation: 'GET /v1/orgs/{organizationId}/openapi/{specSlug}',   expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PUT /v1/orgs/{organizationId}/openapi/{specSlug}',   expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ source: { text: OPENAPI_TEXT } }) },
  { operation: 'PATCH /v1/orgs/{organizationId}/openapi/{specSlug}', expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ visibility: 'private' }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/openapi/{specSlug}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.spec },
  { operation: 'GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions', expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest', expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content', expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}', expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content', expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/translations',         expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/orgs/{organizationId}/translations',        expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ title: nextName('Docs ') }) },
  { operation: 'GET /v1/orgs/{organizationId}/translations/{translationSettingsId}', expect: '401 401 404 403 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'PUT /v1/orgs/{organizationId}/translations/{translationSettingsId}', expect: '401 401 404 403 403 403 403 403 403 2xx', body: () => ({ title: 'Docs', languages: ['fr'] }) },
  { operation: 'DELETE /v1/orgs/{organizationId}/translations/{translationSettingsId}', expect: '401 401 404 403 403 403 403 403 403 2xx', fresh: fresh.translation },

  // integrations: the fixture's is private to the organization; its installation is in the organization, on space S
  //                                                                    anon bad out guest read comment edit review create admin
  { operation: 'GET /v1/integrations',                               expect: '401 401 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'GET /v1/integrations/{integrationName}',             expect: '401 401 404 404 2xx 2xx 2xx 2xx 2xx 2xx' },
  { operation: 'POST /v1/integrations/{integrationName}',            expect: '401 401 404 403 403 403 403 403 403 2xx', body: (world) => integrationManifest(world.params.organizationId) },
  { operation: 'DELETE /v1/integrations/{integrationName}',          expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.integration },
  { operation: 'GET /v1/integrations/{integrationName}/installations', expect: '401 401 404 404 403 403 403 403 403 2xx' },
  { operation: 'GET /v1/orgs/{organizationId}/installations', expect: '401 401 404 403 403 403 403 403 403 2xx' },
  { operation: 'GET /v1/integrations/{integrationName}/events',       expect: '401 401 404 404 403 403 403 403 403 2xx' },
  // Tasks are queued by an installation's script with its own token: no person may.
  { operation: 'POST /v1/integrations/{integrationName}/tasks',       expect: '401 401 404 404 404 404 404 404 404 404', body: () => ({ task: { kind: 'sync' } }) },
  { operation: 'POST /v1/integrations/{integrationName}/installations', expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.integration, body: (world) => ({ organization: world.params.organizationId }) },
  { operation: 'GET /v1/integrations/{integrationName}/installations/{installationId}', expect: '401 401 404 404 403 403 403 403 403 2xx' },
  { operation: 'PATCH /v1/integrations/{integrationName}/installations/{installationId}', expect: '401 401 404 404 403 403 403 403 403 2xx', body: () => ({ externalIds: ['matrix'] }) },
  { operation: 'DELETE /v1/integrations/{integrationName}/installations/{installationId}', expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.installation },
  { operation: 'GET /v1/integrations/{integrationName}/installations/{installationId}/spaces', expect: '401 401 404 404 403 403 403 403 403 2xx' },
  { operation: 'POST /v1/integrations/{integrationName}/installations/{installationId}/spaces', expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.installation, body: (world) => ({ space: world.params.spaceId }) },
  { operation: 'GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}', expect: '401 401 404 404 403 403 403 403 403 2xx' },
  { operation: 'PATCH /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}', expect: '401 401 404 404 403 403 403 403 403 2xx', body: () => ({ externalIds: ['matrix'] }) },
  { operation: 'DELETE /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}', expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.spaceInstallation },
  { operation: 'GET /v1/integrations/{integrationName}/installations/{installationId}/sites', expect: '401 401 404 404 403 403 403 403 403 2xx' },
  { operation: 'POST /v1/integrations/{integrationName}/installations/{installationId}/sites', expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.installation, body: (world) => ({ siteId: world.params.siteId }) },
  { operation: 'GET /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}', expect: '401 401 404 404 403 403 403 403 403 2xx' },
  { operation: 'PATCH /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}', expect: '401 401 404 404 403 403 403 403 403 2xx', body: () => ({ externalIds: ['matrix'] }) },
  { operation: 'DELETE /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}', expect: '401 401 404 404 403 403 403 403 403 2xx', fresh: fresh.siteInstallation },
];
