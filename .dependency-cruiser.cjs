/**
 * The import rules of DESIGN §3, checked by `npm run depcheck` in CI: no import loop in
 * src/, and each layer imports only what sits below it. Rows are the shared vocabulary:
 * the pure layers (presenters, policies, lib, the reader) may import db/schema.ts (the
 * row types and the pure helpers on rows beside them), and nothing else of db/.
 * Violations known when a rule came in, and being fixed elsewhere, are listed in
 * .dependency-cruiser-known-violations.json (written by `npx depcruise-baseline src`;
 * none today: the reader's two reads of db/repos went into services/publishedReads.ts);
 * any other one fails the build.
 */
const DB_BUT_ROWS = [{ path: '^src/db/', pathNot: '^src/db/schema\\.ts$' }];

/** One rule per forbidden target, sharing a name. */
const forbid = (name, comment, from, targets) => targets.map((to) => ({ name, comment, severity: 'error', from, to }));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-import-loop',
      comment: 'An import loop in src/: modules import downward, and sideways without a cycle; what follows a change registers at the composition root (DESIGN §3).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...forbid('routes-import-no-db', 'Routes call services; they import no db or repos (DESIGN §3).', { path: '^src/routes/' }, [{ path: '^src/db/' }]),
    ...forbid(
      'content-imports-nothing-of-the-app',
      'The content library knows neither HTTP nor SQL: it imports only itself and lib (DESIGN §3).',
      { path: '^src/content/' },
      [{ path: '^src/', pathNot: '^src/(content|lib)/' }],
    ),
    ...forbid(
      'editor-mapping-runs-in-the-browser',
      "The editor's schema and mapping are bundled into the browser app as well as run by the server: they import only themselves and GitBook's model, nothing that needs Node or parses markdown (DESIGN §9).",
      { path: '^src/content/editor/' },
      [{ path: '^src/', pathNot: '^src/content/(editor/|gitbook/model\\.ts$)' }],
    ),
    ...forbid(
      'policies-and-presenters-are-pure',
      'Policies and presenters take rows and import no db, repos or services (DESIGN §3).',
      { path: '^src/(policies|presenters)/' },
      [...DB_BUT_ROWS, { path: '^src/services/' }],
    ),
    ...forbid(
      'lib-is-below-the-app',
      'lib holds small pure helpers: it imports no services, routes or db (DESIGN §3).',
      { path: '^src/lib/' },
      [...DB_BUT_ROWS, { path: '^src/(services|routes)/' }],
    ),
    ...forbid('services-know-no-http', 'Services import no routes or plugins (DESIGN §3).', { path: '^src/services/' }, [{ path: '^src/(routes|plugins)/' }]),
    ...forbid(
      'reader-reads-through-services',
      'The reader renders what services answer; it reads no db or repos (DESIGN §3).',
      { path: '^src/reader/' },
      DB_BUT_ROWS,
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    // `import type` counts: a loop of types is a loop of modules all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
