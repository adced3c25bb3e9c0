// The list of migrations, in order. Forward-only: a shipped migration is never edited;
// a change is a new file with a later timestamp.
import type { Migration, MigrationProvider } from 'kysely';
import * as identity from './20261122_0001_identity.ts';
import * as contentTree from './20261122_0002_content_tree.ts';
import * as sites from './20261123_0003_sites.ts';
import * as contentObjects from './20261123_0004_content_objects.ts';
import * as changeRequests from './20261123_0005_change_requests.ts';
import * as filesAndSettings from './20261123_0006_files_and_settings.ts';
import * as comments from './20261123_0007_comments.ts';
import * as search from './20261123_0008_search.ts';
import * as linkChecks from './20261123_0009_link_checks.ts';
import * as imports from './20261123_0010_imports.ts';
import * as organizationServices from './20261123_0011_organization_services.ts';
import * as siteRedirects from './20261124_0012_site_redirects.ts';
import * as pageDocuments from './20261124_0013_page_documents.ts';
import * as gitSync from './20261124_0014_git_sync.ts';
import * as contentEvents from './20261125_0015_content_events.ts';
import * as installationIdentity from './20261125_0016_installation_identity.ts';
import * as siteInstallations from './20261125_0017_site_installations.ts';
import * as searchScope from './20261126_0018_search_scope.ts';
import * as storedCounters from './20261126_0019_stored_counters.ts';
import * as reusableContents from './20261126_0020_reusable_contents.ts';
import * as accessVersion from './20261127_0021_access_version.ts';
import * as documentConversion from './20261129_0022_document_conversion.ts';
import * as sectionSpaces from './20261129_0023_section_spaces.ts';
import * as gitSyncConnection from './20261206_0024_git_sync_connection.ts';
import * as sessions from './20261206_0025_sessions.ts';
import * as oidcAndMail from './20261206_0026_oidc_and_mail.ts';
import * as revisionTags from './20261206_0027_revision_tags.ts';
import * as oidcIdentities from './20261206_0028_oidc_identities.ts';
import * as samlIdentities from './20261206_0029_saml_identities.ts';
import * as visitorAuthUrls from './20261206_0030_visitor_auth_urls.ts';
import * as visitorAuthBackend from './20261206_0031_visitor_auth_backend.ts';

const migrations: Record<string, Migration> = {
  '20261122_0001_identity': identity,
  '20261122_0002_content_tree': contentTree,
  '20261123_0003_sites': sites,
  '20261123_0004_content_objects': contentObjects,
  '20261123_0005_change_requests': changeRequests,
  '20261123_0006_files_and_settings': filesAndSettings,
  '20261123_0007_comments': comments,
  '20261123_0008_search': search,
  '20261123_0009_link_checks': linkChecks,
  '20261123_0010_imports': imports,
  '20261123_0011_organization_services': organizationServices,
  '20261124_0012_site_redirects': siteRedirects,
  '20261124_0013_page_documents': pageDocuments,
  '20261124_0014_git_sync': gitSync,
  '20261125_0015_content_events': contentEvents,
  '20261125_0016_installation_identity': installationIdentity,
  '20261125_0017_site_installations': siteInstallations,
  '20261126_0018_search_scope': searchScope,
  '20261126_0019_stored_counters': storedCounters,
  '20261126_0020_reusable_contents': reusableContents,
  '20261127_0021_access_version': accessVersion,
  '20261129_0022_document_conversion': documentConversion,
  '20261129_0023_section_spaces': sectionSpaces,
  '20261206_0024_git_sync_connection': gitSyncConnection,
  '20261206_0025_sessions': sessions,
  '20261206_0026_oidc_and_mail': oidcAndMail,
  '20261206_0027_revision_tags': revisionTags,
  '20261206_0028_oidc_identities': oidcIdentities,
  '20261206_0029_saml_identities': samlIdentities,
  '20261206_0030_visitor_auth_urls': visitorAuthUrls,
  '20261206_0031_visitor_auth_backend': visitorAuthBackend,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
