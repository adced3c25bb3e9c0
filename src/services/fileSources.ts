// The bytes of a batch's files given by URL (insert_files with a url), fetched before
// the batch's transaction through the URL-safety rules (lib/safeFetch.ts).
import { BadRequest } from '../errors.ts';
import { MAX_FILE_BYTES, type ContentChangeInput, type FetchedFile, type FileInput } from '../content/batch.ts';
import { createFetcher, FetchRefused } from '../lib/safeFetch.ts';
import type { ServiceContext } from './context.ts';

const FILE_FETCH_TIMEOUT_MS = 15_000;

/**
 * The bytes of the batch's files given by URL, fetched before any transaction through
 * the URL-safety rules; each file gives exactly one source.
 */
export async function fetchFileSources(ctx: ServiceContext, changes: ContentChangeInput[]): Promise<Map<FileInput, FetchedFile>> {
  const fetched = new Map<FileInput, FetchedFile>();
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [fileIndex, file] of change.files.entries()) {
      const where = `changes[${index}].files[${fileIndex}]`;
      if ((file.base64 === undefined) === (file.url === undefined)) throw new BadRequest(`${where}: give the bytes as base64 or a url to fetch them from, one of the two`);
      if (file.url === undefined) continue;
      let response;
      try {
        response = await createFetcher(ctx.config.allowPrivateUrls)(file.url, { timeoutMs: FILE_FETCH_TIMEOUT_MS, maxBytes: MAX_FILE_BYTES });
      } catch (error) {
        if (!(error instanceof FetchRefused)) throw error;
        throw new BadRequest(error.code === 'TOO_LARGE' ? `${where}: files are limited to 1 MB each` : `${where}.url: ${error.message}`);
      }
      if (response.status >= 400) throw new BadRequest(`${where}.url: ${file.url} answered HTTP ${response.status}`);
      const contentType = String(response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      fetched.set(file, { base64: response.body.toString('base64'), bytes: response.body, ...(/^[\w.+-]+\/[\w.+-]+$/.test(contentType) ? { contentType } : {}) });
    }
  }
  return fetched;
}
