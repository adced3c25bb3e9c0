// Spaces as repositories in GitBook's format, both ways, for Git Sync and for the
// command line's folder import and export: what the conversion of content/gitbook/
// needs is loaded here (the baseline revision, the revision to write, the public specs'
// addresses), and what it makes is stored as a revision of the space.
import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { join, relative as relativePath, sep } from 'node:path';
import { writeAsRepository, type RepositoryLayout } from '../content/gitbook/exportedContent.ts';
import { baselineOf, importedContent, type Baseline, type ImportedContent } from '../content/gitbook/importedContent.ts';
import { computedPagesBlocksOf, readConfig, readRepository, type ComputedPagesBlock, type RepositoryConfig, type RepositoryContent, type RepositorySource } from '../content/gitbook/repository.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import { findRevisionGit } from '../db/repos/gitSync.ts';
import { firstAdminId } from '../db/repos/members.ts';
import { openApiSpecsQuery } from '../db/repos/openApiSpecs.ts';
import { findSpace } from '../db/repos/spaces.ts';
import { findUserById } from '../db/repos/users.ts';
import type { Db, GitPaths, SpaceRow } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { isoNow } from '../lib/clock.ts';
import { mergeRevisionIntoSpace } from './changeRequestContent.ts';
import type { Actor, ServiceContext } from './context.ts';
import { listsOf, requireRevision, treeOf } from './revisionContent.ts';
import { storeRevision } from './revisions.ts';

function hasCredentials(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { username, password } = new URL(url);
  return username !== '' || password !== '';
}

/** The revision an import starts from, with where the last sync had its pages and files. */
async function loadBaseline(db: Db, revisionId: string, root: string): Promise<Baseline> {
  const revision = await requireRevision(db, revisionId);
  const tree = await treeOf(db, revision.root_hash);
  const { files, reusables } = await listsOf(db, revision);
  const synced = await findRevisionGit(db, revisionId);
  const paths = synced ? (JSON.parse(synced.paths) as GitPaths) : undefined;
  return baselineOf(revisionId, { tree, files, reusables }, paths, root);
}

/**
 * A repository's docs stored as a revision of the space made from `base` (pages keep
 * their ids where their files keep their paths), with `alsoInTransaction`'s work in
 * the same transaction; answers the revision and what the import read.
 */
export async function storeImportedRevision(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  input: {
    source: RepositorySource;
    repository: RepositoryContent;
    base: string;
    /** The git blob of a file of the repository, by its path from the repository's top. */
    oidOf?: (path: string) => string | undefined;
    onPage?: (done: number, total: number) => void;
    alsoInTransaction?: (trx: Db, revisionId: string, content: ImportedContent) => Promise<void>;
  },
) {
  const { source, repository } = input;
  const prefix = repository.config.root ? `${repository.config.root}/` : '';
  const has = new Set(source.paths);
  const baseline = await loadBaseline(ctx.db, input.base, repository.config.root);
  const readDocsFile = async (path: string) => (has.has(prefix + path) ? source.read(prefix + path) : undefined);
  const content = await importedContent(databaseObjectStore(ctx.db), isoNow(ctx.clock), repository, readDocsFile, (path) => input.oidOf?.(prefix + path), baseline, input.onPage);
  await databaseObjectStore(ctx.db).put(content.blobs);
  const revision = await ctx.db.transaction().execute(async (trx) => {
    const revisionId = await storeRevision(ctx, trx, content, [], new Map(), [input.base], actor, spaceId);
    await input.alsoInTransaction?.(trx, revisionId, content);
    return revisionId;
  });
  return { revision, content };
}

/**
 * A space's current revision in GitBook's format: each page a file (where it was at the
 * last sync, else GitBook's layout), files in .gitbook/assets, links relative, OpenAPI
 * blocks naming the organization's public specs' addresses, and SUMMARY.md.
 */
export async function revisionAsRepository(
  db: Db,
  space: Pick<SpaceRow, 'organization_id' | 'revision_id'>,
  config: RepositoryConfig,
  /** Where pages and includes were at the last sync, and the blocks of computed pages the repository's SUMMARY.md lists. */
  kept: { pages: Map<string, string>; reusables: Map<string, string>; computedPages?: ComputedPagesBlock[] },
  /** Called once per file, one at a time: memory holds one file's bytes, not the space's. */
  write: (path: string, bytes: Buffer) => Promise<void>,
  /**
   * The last sync with the branch being written: a page whose content, fields, path and
   * links' targets are all as they were then keeps its file as the branch holds it
   * (`keep`), byte for byte, rather than being written anew in GitBook's normal form.
   */
  synced?: { revisionId: string; pageBlobs: Map<string, string>; files: Map<string, string>; keep: (path: string, oid: string) => void },
): Promise<RepositoryLayout> {
  const revision = await requireRevision(db, space.revision_id);
  const tree = await treeOf(db, revision.root_hash);
  const before = synced ? await treeOf(db, (await requireRevision(db, synced.revisionId)).root_hash) : undefined;
  const { files, reusables, tags } = await listsOf(db, revision);
  // A repository may be public: only a public spec's address is written (as its content's
  // public URL is answered), never one holding credentials; one uploaded as text has none.
  const specs = await openApiSpecsQuery(db, space.organization_id).where('s.visibility', '=', 'public').execute();
  const specUrls = new Map(specs.flatMap((spec) => (spec.source_url && !hasCredentials(spec.source_url) ? [[spec.slug, spec.source_url] as const] : [])));
  return writeAsRepository(databaseObjectStore(db), { tree, files, reusables, tags }, config, kept, specUrls, write, synced && before && { ...synced, before });
}

/** The files of a folder, as a repository to read; .git and node_modules left out. */
export async function folderSource(folder: string): Promise<RepositorySource> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relativePath(folder, join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name)).split(sep).join('/'))
    .filter((path) => !/(^|\/)(\.git|node_modules)\//.test(path));
  return { paths, read: (path) => readFile(join(folder, ...path.split('/'))) };
}

/** Who acts for a command run on the server: the organization's longest-standing administrator. */
async function actingAdministrator(ctx: ServiceContext, spaceId: string): Promise<Actor> {
  const space = await findSpace(ctx.db, spaceId);
  if (!space || space.deleted_at) throw new NotFound(`No space with id "${spaceId}"`);
  const userId = await firstAdminId(ctx.db, space.organization_id);
  const user = userId ? await findUserById(ctx.db, userId) : undefined;
  if (!user) throw new NotFound(`The organization of space "${spaceId}" has no active administrator to act as`);
  return { user, tokenId: 'command-line' };
}

/**
 * Imports a folder in GitBook's format into a space as its new content (the folder
 * wins), made from the space's current revision so that pages keep their ids; the
 * organization's first administrator is its author. Answers what came in.
 */
export async function importFolderIntoSpace(ctx: ServiceContext, spaceId: string, folder: string, onPage?: (done: number, total: number) => void) {
  const actor = await actingAdministrator(ctx, spaceId);
  const source = await folderSource(folder);
  const repository = await readRepository(source, '');
  const space = (await findSpace(ctx.db, spaceId))!;
  const { revision, content } = await storeImportedRevision(ctx, actor, spaceId, { source, repository, base: space.revision_id, onPage });
  await mergeRevisionIntoSpace(ctx, actor, spaceId, { base: space.revision_id, revision, summary: `Import of ${folder}` }, async () => undefined);
  return { pages: content.tree.size, files: content.files.length, warnings: content.warnings };
}

/** Writes a space's current content into a folder in GitBook's format; files Quire does not write stay. */
export async function exportSpaceToFolder(ctx: ServiceContext, spaceId: string, folder: string) {
  const space = await findSpace(ctx.db, spaceId);
  if (!space || space.deleted_at) throw new NotFound(`No space with id "${spaceId}"`);
  let configText: string | undefined;
  try {
    configText = await readFile(join(folder, '.gitbook.yaml'), 'utf8');
  } catch {
    // No configuration: GitBook's defaults.
  }
  const config = readConfig(configText, '');
  const docs = join(folder, ...config.root.split('/').filter(Boolean));
  // As Git Sync does: the folder's SUMMARY.md keeps the blocks of pages GitBook computes.
  const summary = await readFile(join(docs, ...config.summary.split('/')), 'utf8').catch(() => undefined);
  const computedPages = summary === undefined ? [] : computedPagesBlocksOf(summary, config.summary);
  const layout = await revisionAsRepository(ctx.db, space, config, { pages: new Map(), reusables: new Map(), computedPages }, async (path, bytes) => {
    const target = join(docs, ...path.split('/'));
    await mkdir(join(target, '..'), { recursive: true });
    await writeFile(target, bytes);
  });
  return { pages: layout.pagePaths.size, files: layout.filePaths.size };
}
