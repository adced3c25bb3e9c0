#!/usr/bin/env node
// Quire's command line. A checkout needs no build step: the TypeScript sources are
// bundled into one ES module when Quire starts (esbuild, about 0.1 s; the dependencies
// stay in node_modules) and the bundle is kept by its content hash. Running the
// sources through a loader instead costs a round trip to the loader's thread for every
// one of the ~600 modules: it doubled the start and held 100 MB more (README,
// Performance). Where the bundle cannot be made or written, the sources run through
// tsx's loader as before.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const entry = join(root, 'src', 'cli.ts');
const cache = join(root, 'node_modules', '.cache', 'quire');

/** Bundles the sources; each keeps its own import.meta.url, so files beside it (reader assets, the worker entry) are found. */
async function bundle() {
  const { build } = await import('esbuild');
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
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    // Written beside the bundle: stack traces name the sources' files and lines.
    sourcemap: 'linked',
    sourcesContent: false,
    absWorkingDir: root,
    outdir: cache,
    logLevel: 'silent',
    plugins: [keepModuleUrl],
  });
  const file = (extension) => result.outputFiles.find((output) => output.path.endsWith(extension)).text;
  return { code: file('.js'), map: file('.js.map') };
}

/** Writes the bundle and its map under node_modules/.cache by its hash (atomically: several processes may start at once); old ones go after a day. */
function store({ code, map }) {
  mkdirSync(cache, { recursive: true });
  const file = join(cache, `cli-${createHash('sha256').update(code).update(map).digest('hex').slice(0, 16)}.mjs`);
  const write = (path, text) => {
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, path);
  };
  try {
    statSync(file);
    return file;
  } catch {
    // The map first: a bundle present means its map is too.
    write(`${file}.map`, map);
    write(file, code.replace(/\/\/# sourceMappingURL=.*\s*$/, `//# sourceMappingURL=${basename(file)}.map\n`));
  }
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (path !== file && Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { force: true });
  }
  return file;
}

let bundled;
try {
  bundled = store(await bundle());
} catch {
  bundled = undefined;
}
if (bundled) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(bundled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
