// The browser app's build (web/, React and Vite): made by the first start after web/
// or the installed packages change, as bin/quire.js makes the server's bundle, so that
// `npm install && npm start` is all it takes. Kept by what it is made of, in
// node_modules/.cache/quire/web/<key>/; `npm run build:web` makes it on its own.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const webSources = join(root, 'web');
const builds = join(root, 'node_modules', '.cache', 'quire', 'web');

/** Files worth sending gzipped: the server sends the .gz beside each to a browser that takes it. */
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|map)$/;

/** The server's sources the app imports: the published site's renderer and stylesheet, and the document model they read. */
const SHARED_SOURCES = ['src/reader', 'src/content/gitbook'];

/** What the build is made of: this file (its settings), web/'s files, the server's sources it shares and the installed packages (the lock file names their versions). */
function sourcesKey(): string {
  const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url)));
  for (const manifest of ['package-lock.json', 'package.json']) {
    const path = join(root, manifest);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  for (const directory of [webSources, ...SHARED_SOURCES.map((shared) => join(root, shared))]) {
    for (const file of readdirSync(directory, { recursive: true, encoding: 'utf8' }).sort()) {
      const path = join(directory, file);
      if (statSync(path).isFile()) hash.update(file).update(readFileSync(path));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** The directory of the build of web/'s current sources, or undefined when it has not been made. */
export function webAppDirectory(): string | undefined {
  if (!existsSync(webSources)) return undefined;
  const directory = join(builds, sourcesKey());
  return existsSync(join(directory, 'index.html')) ? directory : undefined;
}

/**
 * Builds web/ with Vite unless its build is there, and answers its directory. Written
 * aside and renamed into place, since several processes may start at once.
 */
export async function ensureWebApp(log: (message: string) => void = () => {}): Promise<string> {
  const existing = webAppDirectory();
  if (existing) return existing;
  const directory = join(builds, sourcesKey());
  const partial = `${directory}.${process.pid}.tmp`;
  log('building the app (web/) with Vite: the first start after a change to it takes a little longer');
  const started = Date.now();
  // Loaded only to build: a server with its build never loads Vite.
  const [{ build }, { default: react }] = await Promise.all([import('vite'), import('@vitejs/plugin-react')]);
  // Vite and React's plugin take production from NODE_ENV where it is set: under vitest
  // (NODE_ENV=test) the app was built with React's development code, 1.5 times the size.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: webSources,
      base: '/app/',
      mode: 'production',
      configFile: false,
      logLevel: 'warn',
      plugins: [react()],
      build: {
        outDir: partial,
        emptyOutDir: true,
        assetsDir: 'assets',
        sourcemap: true,
        chunkSizeWarningLimit: 1000,
        // The small shared chunks copied into the chunks that use them (rolldown keeps one module state across the
        // copies): a browser sends six requests at a time to one server, and the editor's address asked for some 60
        // files, behind which the API's reads waited. Now about 20; opening a page in the editor 0.13 s sooner, the
        // sign-in screen's scripts 11 KB more (bench/RESULTS.md). Styles stay in their own files, as rolldown advises.
        rolldownOptions: { output: { codeSplitting: { experimentalInlineCommonChunks: { maxSize: 8_000, exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/ } } } },
      },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  for (const file of readdirSync(join(partial, 'assets'))) {
    if (COMPRESSIBLE.test(file)) writeFileSync(join(partial, 'assets', `${file}.gz`), gzipSync(readFileSync(join(partial, 'assets', file)), { level: 9 }));
  }
  mkdirSync(builds, { recursive: true });
  try {
    renameSync(partial, directory);
  } catch {
    // Another process stored the same build first.
    rmSync(partial, { recursive: true, force: true });
  }
  // Kept a day, for a process still serving an older build's assets.
  for (const name of readdirSync(builds)) {
    const path = join(builds, name);
    if (path !== directory && Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
  }
  log(`built the app in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return directory;
}
