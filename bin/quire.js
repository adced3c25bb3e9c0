#!/usr/bin/env node
// Quire's command line. A checkout needs no build step: the TypeScript sources are
// bundled into ES modules when Quire starts (esbuild, about 0.1 s; the dependencies
// stay in node_modules): the command line, and what the worker threads of the CPU pool
// run. The bundles are kept by their content hash. Running the sources through a loader
// instead costs a round trip to the loader's thread for every one of the ~600 modules:
// it doubled the start and held 100 MB more (README, Performance), and each worker
// thread loaded the loader again. Where the bundles cannot be made or written, the
// sources run through tsx's loader as before.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cache = join(root, 'node_modules', '.cache', 'quire');
const entryPoints = { cli: join(root, 'src', 'cli.ts'), worker: join(root, 'src', 'workers', 'run.ts') };

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
  // The dependencies stay in node_modules, but for the math syntax: micromark-extension-math's
  // index also exports its HTML renderer, which loads KaTeX (2.6 MB of heap) into every
  // process that parses markdown; bundled, the renderer is left out. The reader loads
  // KaTeX when it first renders a page.
  const dependenciesExternal = {
    name: 'dependencies-external',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) => (/^(remark-math|micromark-extension-math)(\/|$)/.test(args.path) ? undefined : { path: args.path, external: true }));
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
 * Writes the bundles with their maps into node_modules/.cache/quire/<hash>/: written
 * aside and renamed into place, since several processes may start at once. Bundles
 * older than a day go.
 */
function store(files) {
  mkdirSync(cache, { recursive: true });
  const hash = createHash('sha256');
  for (const file of files) hash.update(file.name).update(file.text);
  const directory = join(cache, hash.digest('hex').slice(0, 16));
  try {
    statSync(directory);
    return directory;
  } catch {
    const partial = `${directory}.${process.pid}.tmp`;
    mkdirSync(partial, { recursive: true });
    for (const { name, text } of files) writeFileSync(join(partial, name), text);
    try {
      renameSync(partial, directory);
    } catch {
      // Another process stored the same bundles first.
      rmSync(partial, { recursive: true, force: true });
    }
  }
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (path !== directory && Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
  }
  return directory;
}

let bundled;
try {
  bundled = store(await bundle());
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
