// What the revisions service keeps in memory. Revisions, trees, lists and documents
// never change once stored, so one read serves every later request; answers as sent are
// kept by everything they are made of. Each cache is bounded by what its entries weigh
// (lib/weightBoundedCache.ts). They live in the service context (ctx.revisions), where
// a test can see and clear them; the server's context holds the process's one.
import type { Hash } from '../content/objects.ts';
import type { FlatTree, TreeOutline } from '../content/tree.ts';
import type { FileEntry } from '../content/files.ts';
import type { ReusableEntry } from '../content/reusables.ts';
import type { TagLibrary } from '../content/tagLibrary.ts';
import type { PageLinks } from '../content/links.ts';
import type { GitPaths, RevisionGitRow, RevisionRow } from '../db/schema.ts';
import { WeightBoundedCache } from '../lib/weightBoundedCache.ts';

/** A revision's Git metadata, with where its pages and files sit in the commit parsed. Shared by readers: never changed. */
export interface RevisionGit {
  row: RevisionGitRow;
  paths: GitPaths;
}

/** A revision's lists as reads share them: parsed once, frozen. */
export interface SharedLists {
  files: readonly FileEntry[];
  reusables: readonly ReusableEntry[];
  tags: TagLibrary;
}

/** Page lists up to this much JSON (about 500 pages) are kept with the others; of larger ones only the last read. */
export const KEPT_LIST_LENGTH = 256_000;

/** Characters of document JSON kept (RevisionCaches.documents). */
const DOCUMENTS_KEPT = 8 * 1024 * 1024;

function pathCount(paths: GitPaths): number {
  return 1 + Object.keys(paths.pages).length + Object.keys(paths.files).length + Object.keys(paths.reusables ?? {}).length;
}

export class RevisionCaches {
  /** Trees of revisions. At most 150,000 pages (about 40 MB at ~270 B a page), so memory stays bounded for large spaces while the working set of an organization of 100,000 pages stays cached. */
  readonly trees = new WeightBoundedCache<FlatTree>(150_000, (tree) => tree.size);
  /**
   * Outlines of revisions, for search, which shows pages of up to 50 spaces per query:
   * holding their whole trees would push out the trees page reads need, and reading them
   * again on every query cost most of a large organization's searches.
   */
  readonly outlines = new WeightBoundedCache<TreeOutline>(250_000, (outline) => outline.size);
  /**
   * Revisions, and their files and reusable-content lists as stored, read by every request
   * for content: neither ever changes, so reading them once saves two round trips to the
   * database on each later read. Kept when read outside a transaction, so that nothing a
   * rolled-back write held is kept. The current revisions of thousands of spaces and
   * change requests, ~300 B each; lists up to 4 million characters.
   */
  readonly revisions = new WeightBoundedCache<RevisionRow>(2_000, () => 1);
  readonly listTexts = new WeightBoundedCache<string>(4_000_000, (text) => text.length);
  /**
   * Pages' markdown by its hash, kept as lists are: a page read as markdown read it on each
   * read, its one round trip to the database beyond the token's. Pages up to 64 KB, 4
   * million characters in all: a few thousand ordinary pages.
   */
  readonly markdownTexts = new WeightBoundedCache<string>(4_000_000, (text) => text.length, 64_000);
  /**
   * Trees being read outside transactions: requests that miss the cache together read a
   * tree once, not once each. A request inside a transaction reads on its own: on SQLite
   * its transaction holds the one connection, so waiting on a read through another
   * request's queries would wait for itself.
   */
  readonly reading = new Map<Hash, Promise<FlatTree>>();
  /**
   * Git metadata of revisions, parsed, by revision, with the stamp of the row they were
   * read from. A sync or export may write a revision's row again, so an entry serves only
   * a read that knows the row's current stamp (read with the space, repos/gitSync.ts) and
   * finds the same. The paths of a synced space of 5,000 pages are ~500 KB of JSON, which
   * took 5 ms to parse on every read of any of its pages. Up to 200,000 paths are kept.
   */
  readonly revisionGits = new WeightBoundedCache<{ stamp: string; git: RevisionGit }>(200_000, ({ git }) => pathCount(git.paths));
  /**
   * Revisions' lists as reads share them: parsed once and frozen, up to 1 million
   * characters of JSON a revision (some 4,000 files), 4 million in all. Every content read
   * parsed its revision's lists afresh: ~24 µs for a space of 60 images, more than the
   * rest of a page read.
   */
  readonly sharedLists = new WeightBoundedCache<SharedLists & { length: number }>(4_000_000, (lists) => lists.length, 1_000_000);
  /**
   * Page lists as sent, by space, tree and Git commit: what a page list presents is made
   * only of those (and the server's public URL), none of which a revision's reader can
   * change. Presenting and serializing a list takes ~100 µs for 20 pages and ~20 ms for
   * 5,000 (page by page: pageListAnswerJson), on every read; GitBook's renderer reads its
   * site's page list for most pages it renders. Lists up to 256 KB of JSON (about 500
   * pages) are kept, 4 MB in all, and of larger ones only the last read: serving an
   * organization of 5,000-page spaces (2.6 MB lists), keeping one held the process as
   * keeping none did, while keeping 8 MB of them held 25 MB more (the allocator's
   * fragments between them), where that process is already over its 200 MB (README,
   * Performance).
   */
  readonly pageListAnswers = new WeightBoundedCache<string | Buffer>(4_000_000, (json) => json.length, KEPT_LIST_LENGTH);
  readonly lastLargePageList = new WeightBoundedCache<string | Buffer>(1, () => 1);
  /**
   * Pages with their markdown or document, as sent, by everything they are made of: the
   * address, the space, the tree (the page, its sub-pages, its content), the files its
   * links resolve to and the Git commit it sits in. Up to 64 KB each, 4 MB in all.
   * Presenting the page and serializing it was a fifth of a page read's CPU.
   */
  readonly pageAnswers = new WeightBoundedCache<string>(4_000_000, (json) => json.length, 64_000);
  /**
   * Documents with their links resolved where they sit, as sent, by tree, files, page and
   * content: resolving depends on nothing else. GitBook's renderer reads a page's document
   * for each render; parsing the stored document, resolving and keying it and serializing
   * it again was ~110 of a read's ~170 µs. Documents up to 64 KB of JSON are kept, 4 MB in all.
   */
  readonly resolvedDocuments = new WeightBoundedCache<string>(4_000_000, (json) => json.length, 64_000);
  /**
   * Pages' documents as JSON by the hash of their markdown, links as written
   * (services/pageDocuments.ts): a string costs a fraction of the objects it parses to.
   * About 16 pages of 100 KB of markdown, or some 800 ordinary ones; a miss reads the
   * stored document and inflates it off the event loop. It kept 48 million characters
   * before (48-96 MB of strings, one or two bytes a character): a crawler reading 100
   * such pages of a site took `npm start`'s process to 336 MB, and to 267 MB with this.
   */
  readonly documents = new WeightBoundedCache<string>(DOCUMENTS_KEPT, (json) => json.length, DOCUMENTS_KEPT / 4);
  /** Conversions of markdown to documents under way, by the markdown's hash: an opening joins the one a save began ahead of it. */
  readonly converting = new Map<string, Promise<string>>();
  /**
   * Each revision's links, parsed (services/links.ts). Bounded by what they weigh, a page
   * and each of its links and anchors one (~200 B each), 150,000 in all (~30 MB): the 100
   * revisions kept before, whatever their size, could be 100 revisions of a 5,000-page
   * space, over a gigabyte. A revision weighing more is parsed again for each listing.
   */
  readonly pageLinks = new WeightBoundedCache<{ links: Map<string, PageLinks>; weight: number }>(150_000, (revision) => revision.weight, 150_000);

  /** Forgets everything kept (reads in flight finish on their own). */
  /**
   * Markdown files Git Sync read from a repository, by their git blob: a push changes a
   * few of a space's files, and an import read every one again from the packfile, 0.7-1 s
   * of a one-page push to a 1,026-page space. Files up to 64 KB, 8 MB in all.
   */
  readonly gitFiles = new WeightBoundedCache<Buffer>(8 * 1024 * 1024, (bytes) => bytes.length, 64 * 1024);

  clear(): void {
    for (const cache of [this.trees, this.outlines, this.revisions, this.listTexts, this.markdownTexts, this.revisionGits, this.sharedLists, this.pageListAnswers, this.lastLargePageList, this.pageAnswers, this.resolvedDocuments, this.documents, this.pageLinks, this.gitFiles]) {
      cache.clear();
    }
  }
}

/**
 * The process's caches. The server's and the command line's contexts hold them, and so
 * do the loaders still called with a database handle alone (services/revisions.ts), so
 * that a tree a writer keeps is the one the next read finds.
 */
export const processRevisionCaches = new RevisionCaches();
