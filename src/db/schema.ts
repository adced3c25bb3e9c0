// Table types for Kysely. Timestamps are ISO 8601 strings (UTC, millisecond
// precision) and booleans are 0/1 integers on both engines, so rows read the same
// from SQLite and PostgreSQL and timestamps sort as text.
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Role } from '../lib/roles.ts';

export type Flag = 0 | 1;

export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
  created_at: string;
  /**
   * `scrypt$N$r$p$salt$hash` (lib/passwords.ts); null for people without a password
   * (SSO, tokens only). Never part of UserRow: only the sign-in queries read it.
   */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
  /** The SAML provider whose sign-in issued the token; null for tokens made otherwise. */
  saml_provider_id: string | null;
  /** 'session': a browser's sign-in (the quire_session cookie); 'api': a token a person or script holds. */
  kind: 'api' | 'session';
  /** 'read' tokens may only GET and HEAD. */
  scope: 'write' | 'read';
  /** Null: never expires. */
  expires_at: string | null;
  /** Moved at most once a minute (services/sessions.ts). */
  last_used_at: string | null;
  user_agent: string | null;
  address: string | null;
}

/** A one-time sign-in link (quire admin sign-in-link, password resets): its secret kept as a hash. */
export interface SignInLinksTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** One failed sign-in, under 'account:<email>' or 'address:<ip>': the rate limit counts them. */
export interface SignInFailuresTable {
  id: string;
  key: string;
  failed_at: string;
}

export interface OrganizationsTable {
  id: string;
  title: string;
  hostname: string | null;
  /** JSON array of lowercase domains; organization_email_domains indexes it for look-ups. */
  email_domains: string;
  type: string;
  default_role: Role | null;
  default_content_site: string | null;
  logo_url: string | null;
  sso: Flag;
  ai: Flag;
  invite_links: Flag;
  created_at: string;
  updated_at: string;
}

export interface OrganizationEmailDomainsTable {
  organization_id: string;
  domain: string;
}

export interface OrganizationMembersTable {
  organization_id: string;
  user_id: string;
  /** null for guests */
  role: Role | null;
  sso: Flag;
  disabled: Flag;
  joined_at: string;
  last_seen_at: string | null;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  role: 'owner' | 'member';
  added_at: string;
}

export interface OrganizationInvitesTable {
  id: string;
  organization_id: string;
  role: Role | null;
  created_by: string;
  created_at: string;
  /** Null: never expires (invites made before expiry existed). */
  expires_at: string | null;
  /** An e-mail invite's address (one use); null for a link invite anyone holding it may use. */
  email: string | null;
}

/** A role, or "inherit" (from the parent collection, or the organization at the top). */
export type DefaultLevel = Role | 'inherit' | null;

export interface CollectionsTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: string;
  /** Fractional index: sorts as text among the spaces and collections of one parent. */
  position: string;
  created_at: string;
  updated_at: string;
}

export interface RevisionsTable {
  id: string;
  /** JSON array of parent revision ids. */
  parents: string;
  /** Hash of the revision's top-level page list in content_objects. */
  root_hash: Generated<string>;
  /** Hash of the revision's files list in content_objects. */
  files_hash: Generated<string>;
  /** Hash of the revision's reusable contents list in content_objects. */
  reusables_hash: Generated<string>;
  /** Hash of the revision's tag library in content_objects (content/tagLibrary.ts); null: it has no tags. */
  tags_hash: string | null;
  created_by: string | null;
  created_at: string;
}

export interface ChangeRequestsTable {
  id: string;
  space_id: string;
  /** Per space, from 1, never reused. */
  number: number;
  status: 'draft' | 'open' | 'archived' | 'merged';
  subject: string;
  created_by: string;
  revision_id: string;
  revision_initial: string;
  revision_merged_ancestor: string | null;
  revision_merged: string | null;
  created_at: string;
  updated_at: string;
}

/** The space revision a change request last took its content from. */
export function baseOf(changeRequest: Pick<ChangeRequestsTable, 'revision_merged_ancestor' | 'revision_initial'>): string {
  return changeRequest.revision_merged_ancestor ?? changeRequest.revision_initial;
}

export interface SpacesTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  emoji: string;
  visibility: string;
  edit_mode: string;
  default_level: string;
  position: string;
  revision_id: string;
  share_key: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ContentGrantsTable {
  organization_id: string;
  target_kind: 'space' | 'collection';
  target_id: string;
  user_id: string;
  role: Role;
  created_at: string;
}

export interface CustomFieldsTable {
  id: string;
  organization_id: string;
  name: string;
  type: string;
  title: string;
  description: string;
  placeholder: string;
  /** JSON array of strings, for select fields. */
  options: string | null;
  created_at: string;
  updated_at: string;
}

export interface SpaceCustomFieldValuesTable {
  space_id: string;
  field_id: string;
  /** JSON of the value. */
  value: string;
}

/** The outbox: something that happened, written in the transaction that made it happen. */
export interface EventsTable {
  id: string;
  /** GitBook's event name, such as `space_content_updated`. */
  type: string;
  organization_id: string;
  space_id: string | null;
  /** JSON: the event's own fields (for `space_content_updated`, `revisionId`, `previousRevisionId`, `updatedBy`). */
  payload: string;
  created_at: string;
}

/** One subscriber's work on one event, run by a job; `done` is written once. */
export interface EventDeliveriesTable {
  event_id: string;
  subscriber: string;
  state: 'pending' | 'done' | 'failed';
  attempts: number;
  last_error: string | null;
  updated_at: string;
}

export interface JobsTable {
  id: string;
  kind: string;
  /** JSON. */
  payload: string;
  run_at: string;
  attempts: number;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
}

export interface SitesTable {
  id: string;
  organization_id: string;
  type: string;
  title: string;
  hostname: string | null;
  basename: string | null;
  /** The URL the site is proxied at, when it is. */
  proxy_origin: string | null;
  visibility: string;
  published: Flag;
  adaptive_enabled: Flag;
  /** JSON of the adaptive-content JSON Schema, once set. */
  adaptive_schema: string | null;
  adaptive_schema_updated_at: string | null;
  /** JSON of the customization settings stored over the defaults. */
  customization: string;
  /** Secret that signs visitor-authentication tokens (HS256). */
  visitor_key: string;
  /** Where a visitor-auth site sends a reader without a valid visitor token; null answers 404. */
  visitor_fallback_url: string | null;
  /** Who signs its visitors in: their own service (`custom`), or the visitor-auth integration installed on the site. */
  visitor_backend: 'custom' | 'integration';
  /** The upstream sign-out a visitor-auth site's pages link to. */
  visitor_logout_url: string | null;
  default_section_id: string | null;
  /** Default site space of a site without sections. */
  default_site_space_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionGroupsTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: string;
  created_at: string;
}

export interface SiteSectionsTable {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  path: string;
  condition: string | null;
  icon: string | null;
  /** Fractional key: ungrouped sections share their order with groups; grouped ones order within the group. */
  position: string;
  default_site_space_id: string | null;
  created_at: string;
}

export interface SiteSpacesTable {
  id: string;
  site_id: string;
  section_id: string | null;
  space_id: string;
  path: string;
  condition: string | null;
  position: string;
  created_at: string;
}

export interface PageDocumentsTable {
  /** The hash of the page's markdown (its content object). */
  hash: string;
  /** The JSONDocument, links as written, deflated, base64. */
  document: string;
  /** The version of the conversion that made it (DOCUMENT_CONVERSION); 0: made before versions were kept. */
  conversion: number;
  created_at: string;
}

export interface SiteRedirectsTable {
  id: string;
  site_id: string;
  /** As given, percent-encoded. */
  source: string;
  /** Decoded: what a reader's path is matched on. */
  source_path: string;
  /** The destination object, JSON. */
  destination: string;
  created_at: string;
}

export interface SpaceGitSyncsTable {
  space_id: string;
  /** The remote, without credentials: the last one an operation succeeded with (or the first one asked for, before any has). */
  url: string;
  ref: string;
  project_directory: string;
  tree_url: string | null;
  commit_url: string | null;
  provider: string | null;
  /** The commit and revision that matched when the space and the repository were last in sync. */
  last_commit: string | null;
  last_revision: string | null;
  /** The `timestamp` of the last operation asked for: older ones are stale. */
  last_timestamp: string | null;
  /** The last operation asked for: its job runs it only while it is still the last. */
  operation_id: string | null;
  operation_direction: 'import' | 'export';
  operation_state: 'running' | 'success' | 'failure';
  operation_started_at: string;
  operation_ended_at: string | null;
  operation_error: string | null;
  /** JSON string[]. */
  operation_warnings: string;
  updated_at: string;
  /**
   * The connection, once an operation (not standalone) succeeded: the URL with its
   * credentials, sealed with the secrets key, and the person it acts as. Only a
   * successful operation changes them: a failed one leaves the connection as it was.
   */
  sealed_url: string | null;
  user_id: string | null;
  /** 1 once an export (not standalone) set up the export of the space's merges. */
  exports_changes: Generated<Flag>;
  /** The secret push webhooks are signed with, sealed; made with the connection. */
  sealed_webhook_secret: string | null;
  /** The last failure of any operation, and when; cleared by the next success. */
  failure_error: string | null;
  failure_at: string | null;
  /**
   * JSON of the revision_git row an export is pushing, written before the push: a run
   * that died after the push finds its commit on the remote and records it, pushing
   * nothing twice.
   */
  pushing: string | null;
  /** An import whose commit conflicted with the space: it waits in that change request, and exports wait for it. */
  conflict_commit: string | null;
  conflict_revision: string | null;
  conflict_change_request: string | null;
  /** When the remote is next asked whether the branch moved (QUIRE_GIT_SYNC_POLL). */
  next_poll_at: string | null;
}

/** A merge waiting to be exported as a commit of its own, in the order the space took them. */
export interface GitSyncExportsTable {
  space_id: string;
  revision_id: string;
  /** 1, 2, … in the order the space took the changes (their commits' order). */
  position: number;
  /** The commit's message: the change in words ("Merge change request #3: Fix typos"). */
  summary: string;
  /** Who made the change: the commit's author. */
  author_id: string | null;
  created_at: string;
}

export interface RevisionGitTable {
  revision_id: string;
  commit_oid: string;
  message: string;
  url: string;
  ref: string;
  /** 1 when Quire wrote the commit (an export). */
  created_by_quire: Flag;
  /** JSON {pages: {id: [path, oid]}, files: {id: [path, oid]}}. */
  paths: string;
  created_at: string;
  /** Who wrote the commit, as git names them; null for what was recorded before authors were kept. */
  author_name: string | null;
  author_email: string | null;
}

export interface SiteShareLinksTable {
  id: string;
  site_id: string;
  name: string;
  share_key: string;
  active: Flag;
  created_at: string;
}

export interface ContentObjectsTable {
  /** SHA-256 of data. */
  hash: string;
  data: string;
}

export interface SpaceRevisionsTable {
  space_id: string;
  revision_id: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface CommentsTable {
  id: string;
  space_id: string;
  /** Set for comments in a change request. */
  change_request_id: string | null;
  /** Set for replies: the comment replied to. */
  parent_id: string | null;
  /** Markdown. */
  body: string;
  /** JSON array of the user ids the body mentions. */
  mentions: string;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  /** The revision the comment was posted on, and the page (with its markdown's hash then). */
  revision_id: string | null;
  page_id: string | null;
  page_blob: string | null;
  node_id: string | null;
}

export interface CommentReactionsTable {
  comment_id: string;
  user_id: string;
  emoji: string;
  reacted_at: string;
}

/** One section of one page of a space's current revision, as search finds it. */
export interface SearchSectionsTable {
  id: Generated<number>;
  /** The space's organization, part of the full-text match (moved with the space). */
  organization_id: string;
  space_id: string;
  page_id: string;
  section_index: number;
  anchor: string;
  page_title: string;
  page_path: string;
  heading: string;
  body: string;
}

/** The revision whose pages a space's search rows hold. */
export interface SearchStateTable {
  space_id: string;
  revision_id: string;
  /** The version of the conversion its sections were made by (DOCUMENT_CONVERSION); 0: before versions were kept. */
  conversion: number;
}

/** The link checker's last answer for an external URL (ok: 1 reachable, 0 broken, null not yet checked). */
export interface LinkChecksTable {
  url: string;
  ok: number | null;
  detail: string | null;
  checked_at: string | null;
  queued_at: string | null;
}

/** A website import into a change request, and what it produced once its job ran. */
export interface ContentImportsTable {
  id: string;
  space_id: string;
  change_request_id: string;
  url: string;
  created_by: string;
  status: 'pending' | 'done';
  revision_id: string | null;
  imported_resources: number | null;
  total_resources: number | null;
  created_at: string;
}

export interface SamlProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  entity_id: string | null;
  certificate: string | null;
  sso_url: string | null;
  default_team_id: string | null;
  /** null: people signing in join as guests. */
  default_role: Role | null;
  created_at: string;
}

export interface SamlRequestsTable {
  id: string;
  provider_id: string;
  value: string;
  created_at: string;
  /** The person who started it signed in: the provider's NameID is linked to them on its answer. */
  link_user_id: string | null;
}

/** The Quire account a SAML provider's NameID is. */
export interface SamlIdentitiesTable {
  provider_id: string;
  name_id: string;
  user_id: string;
  created_at: string;
}

export interface SamlAssertionsTable {
  provider_id: string;
  assertion_id: string;
  consumed_at: string;
}

export interface OidcProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  /** The issuer identifier; its /.well-known/openid-configuration describes the provider. */
  issuer: string;
  client_id: string;
  /** lib/secretBox.ts's seal of the client secret. */
  sealed_client_secret: string;
  default_team_id: string | null;
  /** null: people signing in join as guests. */
  default_role: Role | null;
  created_at: string;
}

/** A sign-in sent to a provider and not yet answered; its state is the key, and it is used once. */
export interface OidcRequestsTable {
  state: string;
  provider_id: string;
  nonce: string;
  code_verifier: string;
  created_at: string;
  expires_at: string;
  /** The person who started it signed in: the provider's subject is linked to them on its return. */
  link_user_id: string | null;
}

/** The Quire account an OpenID provider's subject (`sub`) is. */
export interface OidcIdentitiesTable {
  provider_id: string;
  subject: string;
  user_id: string;
  created_at: string;
}

/** A session (api_tokens row) an OpenID provider opened: removing the provider revokes it. */
export interface OidcSessionsTable {
  token_id: string;
  provider_id: string;
}

/** One asked-for password reset, counted per address by its rate limit. */
export interface PasswordResetRequestsTable {
  id: string;
  email: string;
  requested_at: string;
}

export type OpenApiProcessingState = 'pending' | 'progress' | 'complete';
export type OpenApiProcessingError = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

export interface OpenApiSpecsTable {
  id: string;
  organization_id: string;
  slug: string;
  source_url: string | null;
  source_text: string | null;
  visibility: 'private' | 'public';
  processing_state: OpenApiProcessingState;
  last_version_id: string | null;
  last_processed_at: string | null;
  last_error_code: OpenApiProcessingError | null;
  /** JSON array of {message, code}. */
  last_errors: string | null;
  created_at: string;
  updated_at: string;
}

export interface OpenApiSpecVersionsTable {
  id: string;
  spec_id: string;
  /** SHA-256 of text: a processing that finds the same text makes no new version. */
  digest: string;
  url: string | null;
  text: string;
  created_at: string;
}

export interface TranslationSettingsTable {
  id: string;
  organization_id: string;
  title: string;
  /** JSON array of language codes. */
  languages: string;
  created_at: string;
  updated_at: string;
}

export interface IntegrationsTable {
  name: string;
  organization_id: string;
  version: number;
  title: string;
  description: string;
  summary: string;
  visibility: 'public' | 'private' | 'unlisted';
  target: 'all' | 'site' | 'space' | 'organization';
  /** JSON: scopes, categories, blocks, contentSources, externalLinks, configurations, contentSecurityPolicy. */
  manifest: string;
  /** JSON array of category tokens (the list filters on it). */
  categories: string;
  /** JSON array of the host names the blocks unfurl. */
  block_domains: string;
  has_blocks: Flag;
  has_content_sources: Flag;
  icon_asset_id: string | null;
  /** JSON array of asset ids. */
  preview_asset_ids: string;
  /** AES-256-GCM sealed JSON map; never presented. */
  secrets: string | null;
  created_at: string;
  updated_at: string;
}

export interface IntegrationScriptsTable {
  integration_name: string;
  version: number;
  script: string;
  created_at: string;
}

export interface IntegrationAssetsTable {
  id: string;
  integration_name: string;
  content_type: string;
  /** base64 */
  data: string;
}

export interface IntegrationInstallationsTable {
  id: string;
  integration_name: string;
  organization_id: string;
  status: 'active' | 'pending' | 'paused';
  space_selection: 'all' | 'selected';
  site_selection: 'all' | 'selected';
  /** JSON object. */
  configuration: string;
  /** JSON array. */
  external_ids: string;
  created_at: string;
  updated_at: string;
  /** The user the installation acts as, and its token (sealed with the secrets key): made with the first event it receives. */
  user_id: string | null;
  token_id: string | null;
  sealed_token: string | null;
}

export interface IntegrationSpaceInstallationsTable {
  installation_id: string;
  space_id: string;
  status: 'active' | 'pending' | 'paused';
  configuration: string;
  external_ids: string;
  created_at: string;
}

export interface IntegrationSiteInstallationsTable {
  installation_id: string;
  site_id: string;
  status: 'active' | 'pending' | 'paused';
  configuration: string;
  external_ids: string;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  api_tokens: ApiTokensTable;
  sign_in_links: SignInLinksTable;
  sign_in_failures: SignInFailuresTable;
  organizations: OrganizationsTable & {
    /** Moved by triggers whenever a collection, content grant, team or team member of the organization changes (migration 0021). */
    access_version: Generated<number>;
  };
  organization_email_domains: OrganizationEmailDomainsTable;
  organization_members: OrganizationMembersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  organization_invites: OrganizationInvitesTable;
  collections: CollectionsTable;
  revisions: RevisionsTable;
  spaces: SpacesTable & StoredCounters<'change_requests_total' | 'change_requests_open' | 'change_requests_draft' | 'comments_open'>;
  content_grants: ContentGrantsTable;
  custom_fields: CustomFieldsTable;
  space_custom_field_values: SpaceCustomFieldValuesTable;
  jobs: JobsTable;
  events: EventsTable;
  event_deliveries: EventDeliveriesTable;
  sites: SitesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_redirects: SiteRedirectsTable;
  page_documents: PageDocumentsTable;
  site_share_links: SiteShareLinksTable;
  space_git_syncs: SpaceGitSyncsTable;
  revision_git: RevisionGitTable;
  git_sync_exports: GitSyncExportsTable;
  content_objects: ContentObjectsTable;
  change_requests: ChangeRequestsTable & StoredCounters<'comments_open'>;
  space_revisions: SpaceRevisionsTable;
  settings: SettingsTable;
  comments: CommentsTable & StoredCounters<'reply_count'>;
  comment_reactions: CommentReactionsTable;
  search_sections: SearchSectionsTable;
  search_state: SearchStateTable;
  link_checks: LinkChecksTable;
  content_imports: ContentImportsTable;
  saml_providers: SamlProvidersTable;
  saml_requests: SamlRequestsTable;
  saml_assertions: SamlAssertionsTable;
  saml_identities: SamlIdentitiesTable;
  oidc_providers: OidcProvidersTable;
  oidc_requests: OidcRequestsTable;
  oidc_sessions: OidcSessionsTable;
  oidc_identities: OidcIdentitiesTable;
  password_reset_requests: PasswordResetRequestsTable;
  openapi_specs: OpenApiSpecsTable;
  openapi_spec_versions: OpenApiSpecVersionsTable;
  translation_settings: TranslationSettingsTable;
  integrations: IntegrationsTable;
  integration_scripts: IntegrationScriptsTable;
  integration_assets: IntegrationAssetsTable;
  integration_installations: IntegrationInstallationsTable;
  integration_space_installations: IntegrationSpaceInstallationsTable;
  integration_site_installations: IntegrationSiteInstallationsTable;
}

/** A connection or an open transaction: every repo write accepts either. */
export type Db = Kysely<Database> | Transaction<Database>;

// ─── Rows as the repos read them, with what their joins add ─────────────────────────

export type ApiTokenRow = ApiTokensTable;
export type ChangeRequestRow = ChangeRequestsTable;
export type CollectionRow = CollectionsTable;
export type CommentRow = CommentsTable;
export type ContentImportRow = ContentImportsTable;
export type CustomFieldRow = CustomFieldsTable;
export type EventDeliveryRow = EventDeliveriesTable;
export type EventRow = EventsTable;
export type GrantRow = ContentGrantsTable;
export type InstallationRow = IntegrationInstallationsTable;
export type IntegrationAssetRow = IntegrationAssetsTable;
export type IntegrationRow = IntegrationsTable;
export type InviteRow = OrganizationInvitesTable;
export type JobRow = JobsTable;
export type LinkCheckRow = LinkChecksTable;
export type MembershipRow = OrganizationMembersTable;
export type NewRevision = Insertable<RevisionsTable>;
export type OpenApiSpecRow = OpenApiSpecsTable;
export type OpenApiSpecVersionRow = OpenApiSpecVersionsTable;
export type OrganizationRow = OrganizationsTable;
export type PageDocumentRow = PageDocumentsTable;
export type RevisionGitRow = RevisionGitTable;
export type RevisionRow = Selectable<RevisionsTable>;
export type SamlProviderRow = SamlProvidersTable;
export type OidcProviderRow = OidcProvidersTable;
export type SectionGroupRow = SiteSectionGroupsTable;
export type SectionRow = SiteSectionsTable;
export type ShareLinkRow = SiteShareLinksTable;
export type SiteRedirectRow = SiteRedirectsTable;
export type SiteRow = SitesTable;
export type SiteSpaceRow = SiteSpacesTable;
export type SpaceGitSyncRow = Selectable<SpaceGitSyncsTable>;
export type GitSyncExportRow = GitSyncExportsTable;
export type SpaceInstallationRow = IntegrationSpaceInstallationsTable;
export type SiteInstallationRow = IntegrationSiteInstallationsTable;
export type SpaceRow = SpacesTable;
export type TeamMemberRow = TeamMembersTable;
export type TeamRow = TeamsTable;
export type TranslationSettingsRow = TranslationSettingsTable;
export type UserRow = Omit<UsersTable, 'password_hash'>;

/** Where one page or file sits in a commit: its path and blob oid. */
export type GitBlob = [path: string, oid: string];

/** `revision_git.paths`: the revision's pages and files in the commit it matches, by id. */
export interface GitPaths {
  pages: Record<string, GitBlob>;
  files: Record<string, GitBlob>;
  /** Absent in what was recorded before reusable contents were kept. */
  reusables?: Record<string, GitBlob>;
  /** The docs' folder the paths start with ("docs/", or "" at the top); absent in what was recorded before it was kept. */
  root?: string;
}

/**
 * Counts of other rows, stored with the row and kept by the store in the transactions
 * that change what they count (repos/counters.ts). Written only there: inserts leave
 * them to their default, 0.
 */
type StoredCounters<Name extends string> = { [Column in Name]: Generated<number> };

/** A space's stored counters and its Git Sync connection, read with it for presenting. */
export interface SpaceCounters {
  change_requests_total: number;
  change_requests_open: number;
  change_requests_draft: number;
  comments_open: number;
  /** The Git Sync connection, when the space has one. */
  git_url: string | null;
  git_provider: string | null;
  git_tree_url: string | null;
  git_updated_at: string | null;
}

/** What presenting a space needs: the row and its counters. */
export type SpaceWithCounters = SpacesTable & SpaceCounters;

/** A membership with its user, ready for the member presenter. */
export interface MemberRow extends OrganizationMembersTable {
  email: string;
  display_name: string;
  photo_url: string | null;
  team_count: number;
}

export interface CommentWithPeople extends CommentsTable {
  author_email: string;
  author_display_name: string;
  author_photo_url: string | null;
  resolver_email: string | null;
  resolver_display_name: string | null;
  resolver_photo_url: string | null;
  reply_count: number;
  /** Its reactions with who reacted, as one JSON value (read with jsonRows). */
  reactions: unknown;
}

export interface ChangeRequestWithAuthor extends ChangeRequestsTable {
  comments_open: number;
  author_email: string;
  author_display_name: string;
  author_photo_url: string | null;
}

export type InstallationWithCountsRow = IntegrationInstallationsTable & { space_count: number };

/** A team with its member count and the caller's own role in it (null when not in it). */
export interface TeamWithCountsRow extends TeamsTable {
  member_count: number;
  caller_role: string | null;
}

/** An organization together with one user's membership of it. */
export interface OrganizationWithAccessRow extends OrganizationsTable {
  member_role: string | null;
  /** 1 when the user is a member (guests included), else null. */
  is_member: number | null;
  /** 1 when the user owns at least one of the organization's teams. */
  owns_team: number;
}

/**
 * A space read with the request's token, for a read under /spaces/{spaceId}
 * (plugins/auth.ts): what presenting it needs, which Git commit its current revision
 * matches, and what the caller's roles on it depend on (none for a site token's
 * reader, whose standing the policy states).
 */
export interface SpaceReadWithToken {
  row: SpaceWithCounters;
  /** The stamp of the Git commit its current revision matches (repos/gitSync.ts), or null when none. */
  revisionGitStamp: string | null;
  standing?: ContentStandingRows;
}

/** What a caller's roles on a space depend on, beyond the space: read once per operation (services/contentAccess.ts). */
export interface ContentStandingRows {
  /** The caller's access to the organization; undefined when it does not exist. */
  organization: Pick<OrganizationWithAccessRow, 'member_role' | 'is_member' | 'owns_team'> | undefined;
  collections: ReadonlyArray<Pick<CollectionRow, 'id' | 'parent_id' | 'default_level'>>;
  grants: ReadonlyArray<Pick<GrantRow, 'target_kind' | 'target_id' | 'role'>>;
}

export interface TokenOwnerRow {
  token_id: string;
  token_kind: ApiTokensTable['kind'];
  token_scope: ApiTokensTable['scope'];
  token_created_at: string;
  token_expires_at: string | null;
  token_last_used_at: string | null;
  /** An organization whose enforced SSO refuses this token (made outside SSO), or null. */
  sso_required_by: string | null;
  user_id: string;
  email: UsersTable['email'];
  display_name: UsersTable['display_name'];
  photo_url: UsersTable['photo_url'];
  created_at: UsersTable['created_at'];
}

export interface SiteStructureRows {
  groups: SiteSectionGroupsTable[];
  sections: SiteSectionsTable[];
  siteSpaces: SiteSpacesTable[];
}

/** What a published page needs of a space to know its content: the revision, and whether it is deleted. */
export interface PublishedSpaceRow {
  id: string;
  title: string;
  revision_id: string;
  deleted_at: string | null;
}

/**
 * A site with its structure and the state of the spaces it shows, in one statement:
 * every published page starts here, and on PostgreSQL each statement is a round trip.
 */
export interface PublishedSiteRows {
  site: SitesTable;
  structure: SiteStructureRows;
  /** The spaces its site spaces show, by id. */
  spaces: Map<string, PublishedSpaceRow>;
}

/** An active installation on a site, with what its scripts need: its integration's version and manifest. */
export interface InstallationOnSiteRow {
  installation_id: string;
  integration_name: string;
  version: number;
  manifest: string;
}

/** A site as published, with the installations whose scripts its pages load (readPublishedSite, for the reader). */
export interface PublishedSiteWithInstallations extends PublishedSiteRows {
  installations: InstallationOnSiteRow[];
}

/** A section found by a search, with its space's title and current revision read in the same statement. */
export type SectionHit = Selectable<SearchSectionsTable> & { space_title: string; space_revision_id: string };
