#!/usr/bin/env node
// Quire's command line. A checkout needs no build step: the TypeScript sources are
// bundled into ES modules the first time Quire starts from them (esbuild): the command
// line, and what the worker threads of the CPU pool run. The bundles are kept by what
// they are made of, so later starts load them without running esbuild (0.35 s on a
// small machine). Running the sources through a loader instead costs a round trip to
// the loader's thread for every one of the ~600 modules: it doubled the start and held
// 100 MB more (bench/RESULTS.md), and each worker thread loaded the loader again.
// Where the bundles cannot be made or written, the sources run through tsx's loader as
// before.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cache = join(root, 'node_modules', '.cache', 'quire');
const entryPoints = { cli: join(root, 'src', 'cli.ts'), worker: join(root, 'src', 'workers', 'run.ts') };

/**
 * Dependencies bundled with the sources rather than loaded from node_modules: ES-module
 * libraries of many small files that find no file beside them. Node's loader costs each
 * module it loads a resolution, a read and a compile at start and a kilobyte or more of
 * heap for the life of the process; these were ~800 of the ~1,170 modules a server
 * loaded. Bundled, they are a few chunks, and what Quire does not import of them is
 * left out: 5 MB less heap at rest. The math syntax is here too: micromark-extension-math's
 * index also exports its HTML renderer, which loads KaTeX (2.6 MB of heap) into every
 * process that parses markdown; bundled, the renderer is left out. The reader loads
 * KaTeX when it first renders a page. Every other dependency stays in node_modules:
 * CommonJS packages, native addons, and packages that load files beside them (piscina's
 * worker, pino's transports, swagger-ui's assets).
 */
const BUNDLED_DEPENDENCIES =
  /^(?:kysely|@sinclair\/typebox|jose|gemoji|diff|image-size|parse5|entities|unified|trough|bail|devlop|extend|is-plain-obj|zwitch|ccount|longest-streak|markdown-table|html-void-elements|web-namespaces|property-information|comma-separated-tokens|space-separated-tokens|stringify-entities|decode-named-character-reference|escape-string-regexp|mdurl|html-url-attributes|collapse-white-space|fractional-indexing|safe-stable-stringify|robots-parser|jsep|@ungap\/structured-clone|(?:micromark|mdast|hast|hastscript|unist|remark|rehype|vfile|character|trim)(?:-[^/]+)?)(?:\/|$)/;

/** Bundles the sources; each keeps its own import.meta.url, so files beside it (reader assets) are found. */
async function bundle() {
  const { build, stop } = await import('esbuild');
  const keepModuleUrl = {
    name: 'keep-module-url',
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const source = await readFile(args.path, 'utf8');
        return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
      });
    },
  };
  const dependenciesExternal = {
    name: 'dependencies-external',
    setup(builder) {
      // A "#name" import is a bundled package's own (package.json "imports"), resolved with it.
      builder.onResolve({ filter: /^[^./#]/ }, (args) => (BUNDLED_DEPENDENCIES.test(args.path) ? undefined : { path: args.path, external: true }));
    },
  };
  try {
    const result = await build({
      entryPoints,
      bundle: true,
      platform: 'node',
      format: 'esm',
      // What a command imports only when it runs (the HTTP server, the content library)
      // goes into chunks of its own, loaded then: the primary of QUIRE_WORKERS and the
      // admin commands do not load the whole server.
      splitting: true,
      outExtension: { '.js': '.mjs' },
      target: 'node20',
      write: false,
      // Written beside each bundle: stack traces name the sources' files and lines.
      sourcemap: 'linked',
      sourcesContent: false,
      absWorkingDir: root,
      // A directory as deep as the one they are stored in, so the maps' relative paths hold.
      outdir: join(cache, 'bundle'),
      logLevel: 'silent',
      plugins: [keepModuleUrl, dependenciesExternal],
    });
    return result.outputFiles.map((output) => ({ name: basename(output.path), text: output.text }));
  } finally {
    // esbuild's service is a child process of ~60 MB that would otherwise idle beside
    // every Quire process for its whole life.
    await stop();
  }
}

/**
 * What the bundles are made of, as the name of their directory: the checkout's place
 * (they hold their sources' paths), this file, the installed dependencies (the lock
 * file names their versions) and every source file. Reading and hashing them takes a
 * few milliseconds.
 */
function sourcesKey() {
  const hash = createHash('sha256').update(root).update(readFileSync(fileURLToPath(import.meta.url)));
  for (const manifest of ['package-lock.json', 'package.json']) {
    if (existsSync(join(root, manifest))) hash.update(readFileSync(join(root, manifest)));
  }
  const sources = join(root, 'src');
  for (const file of readdirSync(sources, { recursive: true }).sort()) {
    const path = join(sources, file);
    if (statSync(path).isFile()) hash.update(file).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The directory of the bundles of these sources, node_modules/.cache/quire/<key>/, made
 * when there is none: written aside and renamed into place, since several processes may
 * start at once. Bundles not used for a day go when new ones are made.
 */
async function bundlesDirectory() {
  const directory = join(cache, sourcesKey());
  if (existsSync(directory)) {
    // Marks it used, for the clean-up below; a read-only node_modules keeps its bundle all the same.
    try {
      const now = new Date();
      utimesSync(directory, now, now);
    } catch {}
    return directory;
  }
  const files = await bundle();
  mkdirSync(cache, { recursive: true });
  const partial = `${directory}.${process.pid}.tmp`;
  mkdirSync(partial, { recursive: true });
  for (const { name, text } of files) writeFileSync(join(partial, name), text);
  try {
    renameSync(partial, directory);
  } catch {
    // Another process stored the same bundles first.
    rmSync(partial, { recursive: true, force: true });
  }
  for (const name of readdirSync(cache)) {
    // The browser app's builds (src/webApp/build.ts) keep their own.
    if (name === 'web') continue;
    const path = join(cache, name);
    if (path !== directory && Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
  }
  return directory;
}

let bundled;
try {
  bundled = await bundlesDirectory();
} catch {
  bundled = undefined;
}
if (bundled) {
  process.setSourceMapsEnabled(true);
  // The CPU pool (src/workers/pool.ts) starts its threads on this bundle.
  globalThis.quireWorkerModule = pathToFileURL(join(bundled, 'worker.mjs')).href;
  await import(pathToFileURL(join(bundled, 'cli.mjs')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
