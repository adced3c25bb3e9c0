// Every kind of durable job and the function that runs it.
import { IMPORT_WEBSITE_JOB, runWebsiteImport } from '../services/contentImport.ts';
import { DELIVER_EVENT_JOB, deliverEvent, PRUNE_EVENTS_JOB, pruneEvents } from '../services/events.ts';
import { GIT_SYNC_POLL_JOB, GIT_SYNC_PULL_JOB, pollGitSync, pullGitSync } from '../services/gitSync.ts';
import { GIT_SYNC_JOB, runGitSync } from '../services/gitSyncRun.ts';
import { CHECK_LINKS_JOB, checkLinks } from '../services/links.ts';
import { SEND_MAIL_JOB, sendMail } from '../services/mail.ts';
import { PROCESS_OPENAPI_SPEC_JOB, processOpenApiSpec } from '../services/openApiSpecs.ts';
import { PREPARE_DOCUMENTS_JOB, PREPARE_WRITTEN_DOCUMENTS_JOB, prepareShownSpacesDocuments, prepareWrittenDocuments } from '../services/pageDocuments.ts';
import { CATCH_UP_SEARCH_JOB, catchUpStaleSpaces } from '../services/search.ts';
import { PURGE_SPACE_JOB, purgeDeletedSpace } from '../services/spaces.ts';
import type { JobHandler } from './queue.ts';

export const jobHandlers: Record<string, JobHandler> = {
  [PURGE_SPACE_JOB]: purgeDeletedSpace,
  [CHECK_LINKS_JOB]: checkLinks,
  [IMPORT_WEBSITE_JOB]: runWebsiteImport,
  [PROCESS_OPENAPI_SPEC_JOB]: processOpenApiSpec,
  [GIT_SYNC_JOB]: runGitSync,
  [GIT_SYNC_PULL_JOB]: pullGitSync,
  [GIT_SYNC_POLL_JOB]: pollGitSync,
  [DELIVER_EVENT_JOB]: deliverEvent,
  [PRUNE_EVENTS_JOB]: pruneEvents,
  [CATCH_UP_SEARCH_JOB]: catchUpStaleSpaces,
  [PREPARE_DOCUMENTS_JOB]: prepareShownSpacesDocuments,
  [PREPARE_WRITTEN_DOCUMENTS_JOB]: prepareWrittenDocuments,
  [SEND_MAIL_JOB]: sendMail,
};
