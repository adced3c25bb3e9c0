// A revision as GitBook's Revision object, and its files (with signed download links)
// and reusable contents.
import { childrenOfSettledTree, type FlatTree } from '../content/tree.ts';
import type { FileEntry } from '../content/files.ts';
import type { ReusableEntry } from '../content/reusables.ts';
import type { TagEntry, TagLibrary } from '../content/tagLibrary.ts';
import type { GitBlob, GitPaths, RevisionGitRow, RevisionRow } from '../db/schema.ts';
import { signLink } from '../lib/signedLinks.ts';
import { presentGitCommit } from './gitSync.ts';
import { presentPageTree, type PresentedPage } from './page.ts';

/** What a file's download link is made of: the server's address, the key that signs it, and the time it is made at. */
export interface FileLinks {
  publicUrl: string;
  linkKey: string;
  now: Date;
}

/** What presenting a revision reads: the revision, its content, and the commit it matches, if any. */
export interface PresentedRevision {
  revision: Pick<RevisionRow, 'id' | 'parents' | 'created_at'>;
  tree: FlatTree;
  files: readonly FileEntry[];
  reusables: readonly ReusableEntry[];
  tags: TagLibrary;
  /** Read as published content, by someone with no role on the space: its file links are the stable ones. */
  published?: boolean;
  git?: { row: RevisionGitRow; paths: GitPaths };
}

const NO_GIT_PATHS: GitPaths = Object.freeze({ pages: Object.freeze({}), files: Object.freeze({}) });

/** Where the revision's pages and files sit in its commit (none when it matches no commit). */
export function gitPathsOf(view: Pick<PresentedRevision, 'git'>): GitPaths {
  return view.git?.paths ?? NO_GIT_PATHS;
}

const DOWNLOAD_LINK_MS = 60 * 60 * 1000;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * When a download link ends. Members get links for an hour. Readers of published content
 * (GitBook's renderer among them, which caches pages for days) get links that stay the
 * same for a calendar week and last a week beyond it: the same file has the same URL in
 * every answer of the week, and a cached page's images keep loading.
 */
function linkExpiry(now: Date, published: boolean): Date {
  if (!published) return new Date(now.getTime() + DOWNLOAD_LINK_MS);
  return new Date(Math.floor(now.getTime() / WEEK_MS) * WEEK_MS + 2 * WEEK_MS);
}

/** A file with a signed download link: for an hour, or for readers of published content, stable for a week (linkExpiry). */
export function presentFile(links: FileLinks, file: FileEntry, git?: GitBlob, published = false) {
  const token = signLink({ blob: file.blob, name: file.name, type: file.contentType }, links.linkKey, linkExpiry(links.now, published));
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
    downloadURL: `${links.publicUrl}/files/download/${token}`,
    ...(git ? { git: { oid: git[1], path: git[0] } } : {}),
  };
}

/** GitBook's RevisionReusableContent: its document's id is the hash of its markdown, as a page's is. */
export function presentReusableContent(reusable: ReusableEntry, git?: GitBlob) {
  return { id: reusable.id, title: reusable.title, document: reusable.blob, ...(git ? { git: { oid: git[1], path: git[0] } } : {}) };
}

/** GitBook's colours a tag may have; one a repository's tags.yaml gives otherwise is shown as the default (and written back as it was). */
const TAG_COLORS = new Set(['default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan', '$primary', '$info', '$success', '$warning', '$danger', '$tint']);

/**
 * GitBook's RevisionTag: its slug, label, colour and icon. Not its emoji: 0.202's schema
 * offers one of `{emoji}` and `{icon?}`, which an object with an emoji always matches
 * both of, so no answer with one keeps to it (tags.yaml keeps it, and an export writes it).
 */
export function presentTag(tag: TagEntry) {
  return {
    slug: tag.slug,
    label: tag.label,
    color: tag.color !== undefined && TAG_COLORS.has(tag.color) ? tag.color : 'default',
    ...(tag.icon !== undefined ? { icon: tag.icon } : {}),
  };
}

/** `pages`: its page tree when the caller has it presented, or an empty list to put the tree's JSON in place of (services/revisionContent.ts). */
export function presentRevision(links: FileLinks, spaceId: string, view: PresentedRevision, pages?: PresentedPage[]) {
  const git = gitPathsOf(view);
  return {
    object: 'revision' as const,
    id: view.revision.id,
    parents: JSON.parse(view.revision.parents) as string[],
    pages: pages ?? presentPageTree(links.publicUrl, spaceId, view.tree, childrenOfSettledTree(view.tree), git.pages, !view.published),
    files: view.files.map((file) => presentFile(links, file, git.files[file.id], view.published)),
    reusableContents: view.reusables.map((reusable) => presentReusableContent(reusable, git.reusables?.[reusable.id])),
    tags: view.tags.tags.map(presentTag),
    createdAt: view.revision.created_at,
    type: 'edits' as const,
    ...(view.git ? { git: presentGitCommit(view.git.row, !view.published) } : {}),
    urls: { app: `${links.publicUrl}/s/${spaceId}/~/revisions/${view.revision.id}/` },
  };
}
