// Unit tests run once; the API tests run on SQLite, and again on PostgreSQL when
// TEST_DATABASE_URL is set (each test file then gets a schema of its own). The crash
// and several-process tests run once more per engine with every server they start
// serving from two workers (QUIRE_WORKERS=2). The browser tests drive the built app in
// Chromium, on SQLite.
import { defineConfig } from 'vitest/config';

const apiTests = ['test/routes/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/db/**/*.test.ts'];
const engines = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const underWorkers = ['test/cli/crash.test.ts', 'test/cli/processes.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // A test file's imports (some 1,200 modules: the app, Kysely's 265 files, TypeBox's
    // 200) are loaded once per project's worker, not once per file: loading them anew
    // took 77 s of the SQLite project's 412 s on a fast machine, and 283 s of a slow
    // machine's whole run. Files share only module-level caches, keyed by ids that are
    // their own (each file has a database of its own); a project's environment is its
    // workers' alone.
    isolate: false,
    hookTimeout: 60_000,
    // The browser app, built once before any test serves it (kept by its sources' hash).
    globalSetup: ['test/helpers/webAppSetup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      ...engines.map((engine) => ({
        extends: true as const,
        test: { name: engine, include: apiTests, env: { QUIRE_TEST_ENGINE: engine } },
      })),
      ...engines.map((engine) => ({
        extends: true as const,
        test: { name: `${engine} workers`, include: underWorkers, env: { QUIRE_TEST_ENGINE: engine, QUIRE_WORKERS: '2' } },
      })),
      // The app in headless Chromium, one file at a time (each starts a server and a browser), on SQLite.
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          env: { QUIRE_TEST_ENGINE: 'sqlite' },
          globalSetup: ['test/browser/globalSetup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          // A screen waits on a real server and Chromium on a shared machine: a second is too short a wait under load.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
