// The `quire` command line: serve, migrate, and admin commands for the first
// organization, users and tokens. Runs with the same environment as the server and
// is safe beside a running server (SQLite in WAL mode, PostgreSQL transactions).
// What only some commands use (search, the content library, the sandbox; the HTTP
// server, in cluster.ts) is imported by those commands: the primary process of
// QUIRE_WORKERS, which only supervises, and the admin commands start without it.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, unknownVariableWarnings, type Config } from './config.ts';
import { join, resolve } from 'node:path';
import { copyInstance, CopyRefused } from './db/copy.ts';
import { migrate, openMigratedDatabase, type DatabaseHandle } from './db/index.ts';
import { openDatabase } from './db/dialect.ts';
import { AppError } from './errors.ts';
import { systemClock } from './lib/clock.ts';
import { isRole, ROLES } from './lib/roles.ts';
import { addUser, bootstrap, createToken } from './services/accounts.ts';
import { revokeToken } from './services/users.ts';
import { serve } from './cluster.ts';
import { pino } from 'pino';
import { linkSigningKey } from './db/repos/settings.ts';
import { loadSecretsKey } from './lib/secretBox.ts';
import type { ServiceContext } from './services/context.ts';
import { processRevisionCaches } from './services/revisionCaches.ts';

class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

interface Command {
  usage: string;
  options: Options;
  /** How many positional arguments the command takes (none unless said). */
  positionals?: number;
  run(values: Record<string, unknown>, config: Config, positionals: string[]): Promise<void>;
}

const json = { type: 'boolean' } as const;
const text = { type: 'string' } as const;

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function email(values: Record<string, unknown>): string {
  const value = required(values, 'email');
  if (!EMAIL.test(value) || value.length > 320) throw new UsageError(`--email must be an e-mail address, got "${value}"`);
  return value;
}

async function withDatabase<T>(config: Config, work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = await openMigratedDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

/** What a service needs, for commands that act through the services as the server does. */
async function withServices<T>(config: Config, work: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  const [{ createSandbox }, { JobRuns }, { registerEventSubscribers }] = await Promise.all([import('./sandbox/sandbox.ts'), import('./jobs/queue.ts'), import('./jobs/subscribers.ts')]);
  registerEventSubscribers();
  return withDatabase(config, async (handle) => {
    const log = pino({ level: 'error' }, pino.destination(2));
    const ctx: ServiceContext = {
      db: handle.db,
      clock: systemClock,
      log,
      config,
      linkKey: await linkSigningKey(handle.db),
      secretsKey: () => loadSecretsKey(config),
      sandbox: createSandbox(config, log),
      jobRuns: new JobRuns(),
      revisions: processRevisionCaches,
    };
    try {
      return await work(ctx);
    } finally {
      await ctx.sandbox.close();
      await ctx.jobRuns.settled();
    }
  });
}

function print(values: Record<string, unknown>, asJson: object, forPerson: string): void {
  console.log(values.json ? JSON.stringify(asJson) : forPerson);
}

const commands: Record<string, Command> = {
  serve: {
    usage:
      'quire serve\n  Serves the API on PORT with the configured database (same as npm start);\n' +
      '  QUIRE_WORKERS=N (or auto, one per core) serves from N processes sharing the port.',
    options: {},
    async run(_values, config) {
      await serve(config);
    },
  },
  migrate: {
    usage: 'quire migrate\n  Brings the database schema up to date, then exits.',
    options: {},
    async run(_values, config) {
      const handle = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
      try {
        const applied = await migrate(handle);
        console.log(applied.length ? `Applied ${applied.join(', ')}` : 'The database is up to date');
      } finally {
        await handle.close();
      }
    },
  },
  reindex: {
    usage: 'quire reindex [--json]\n  Rebuilds the search index of every live space from its current revision, then exits.',
    options: { json },
    async run(values, config) {
      const { reindexEverything } = await import('./services/search.ts');
      let spaces = 0;
      let pages = 0;
      // Progress on a terminal, one line rewritten in place; nothing extra for scripts.
      const onTerminal = process.stderr.isTTY === true;
      await withDatabase(config, (handle) =>
        reindexEverything(handle.db, (progress) => {
          spaces++;
          pages += progress.pages;
          if (onTerminal) process.stderr.write(`\rReindexing: ${progress.done} of ${progress.of} spaces, ${pages} pages`);
        }),
      );
      if (onTerminal) process.stderr.write('\n');
      print(values, { spaces, pages }, `Reindexed ${pages} pages in ${spaces} spaces.`);
    },
  },
  copy: {
    usage:
      'quire copy --to <postgres://… | folder> [--json]\n' +
      '  Copies this instance (the database of QUIRE_DATA_DIR or DATABASE_URL) whole into an empty database:\n' +
      '  a PostgreSQL URL, or a folder for an SQLite database. Users, tokens, organizations, spaces with every\n' +
      '  revision, change requests, comments, sites, files, integrations and settings; the search index is rebuilt.',
    options: { to: text, json },
    async run(values, config) {
      const to = required(values, 'to');
      const { reindexEverything } = await import('./services/search.ts');
      const target = /^postgres(ql)?:\/\//.test(to) ? { databaseUrl: to, dataDir: config.dataDir } : { dataDir: resolve(to) };
      if (target.databaseUrl ? target.databaseUrl === config.databaseUrl : !config.databaseUrl && target.dataDir === config.dataDir) {
        throw new UsageError('--to names the database this instance already uses');
      }
      const copied = await withDatabase(config, (source) =>
        withDatabase({ ...config, databaseUrl: target.databaseUrl, dataDir: target.dataDir }, async (destination) => {
          const tables = await copyInstance(source.db, destination.db, ({ table, rows }) => {
            if (!values.json) console.log(`${table}: ${rows} rows`);
          });
          let pages = 0;
          await reindexEverything(destination.db, (progress) => void (pages += progress.pages));
          return { tables, pages };
        }),
      );
      const rows = copied.tables.reduce((sum, table) => sum + table.rows, 0);
      print(
        values,
        { tables: Object.fromEntries(copied.tables.map((table) => [table.table, table.rows])), indexedPages: copied.pages },
        `Copied ${rows} rows in ${copied.tables.length} tables and indexed ${copied.pages} pages for search.\n` +
          'Integration secrets stay sealed with this instance\'s key: start the new one with the same QUIRE_SECRETS_KEY,\n' +
          `or with ${join(config.dataDir, 'secrets.key')} copied into its QUIRE_DATA_DIR.`,
      );
    },
  },
  import: {
    usage:
      'quire import <folder> --space <spaceId> [--json]\n' +
      "  Brings a folder in GitBook's format (SUMMARY.md, .gitbook.yaml, .gitbook/assets, one markdown file per page)\n" +
      '  into a space as its new content, the folder winning over what the space holds. Pages keep their ids where\n' +
      "  their files keep their paths; the organization's first administrator is the author.",
    options: { space: text, json },
    positionals: 1,
    async run(values, config, [folder]) {
      const spaceId = required(values, 'space');
      // Progress on a terminal, one line rewritten in place; nothing extra for scripts.
      const onTerminal = process.stderr.isTTY === true;
      const onPage = (done: number, total: number) => {
        if (onTerminal && (done % 25 === 0 || done === total)) process.stderr.write(`\rImporting ${resolve(folder)}: ${done} of ${total} pages`);
      };
      const { importFolderIntoSpace } = await import('./services/gitbookRepository.ts');
      const result = await withServices(config, (ctx) => importFolderIntoSpace(ctx, spaceId, resolve(folder), onPage));
      if (onTerminal) process.stderr.write('\n');
      print(values, result, [`Imported ${result.pages} pages and ${result.files} files.`, ...result.warnings.map((warning) => `  warning: ${warning}`)].join('\n'));
    },
  },
  export: {
    usage:
      "quire export --space <spaceId> <folder> [--json]\n  Writes a space's current content into a folder in GitBook's format; files it does not write stay.",
    options: { space: text, json },
    positionals: 1,
    async run(values, config, [folder]) {
      const spaceId = required(values, 'space');
      const { exportSpaceToFolder } = await import('./services/gitbookRepository.ts');
      const result = await withServices(config, (ctx) => exportSpaceToFolder(ctx, spaceId, resolve(folder)));
      print(values, result, `Wrote ${result.pages} pages and ${result.files} files to ${resolve(folder)}.`);
    },
  },
  'admin bootstrap': {
    usage:
      'quire admin bootstrap --org <title> --email <email> --name <name> [--json]\n' +
      '  Creates the user (unless the e-mail has one), an organization with them as admin, and an API token.',
    options: { org: text, email: text, name: text, json },
    async run(values, config) {
      const organizationTitle = required(values, 'org');
      if (organizationTitle.length < 2 || organizationTitle.length > 255) {
        throw new UsageError('--org must be 2 to 255 characters');
      }
      const input = { organizationTitle, email: email(values), name: required(values, 'name') };
      const result = await withDatabase(config, (handle) => bootstrap(handle.db, systemClock, input));
      print(
        values,
        { organization: { id: result.organization.id }, user: { id: result.user.id }, token: result.token },
        `Organization "${result.organization.title}" (${result.organization.id}) created.\n` +
          `Administrator: ${result.user.display_name} <${result.user.email}> (${result.user.id})\n` +
          `API token (shown once): ${result.token}`,
      );
    },
  },
  'admin add-user': {
    usage:
      'quire admin add-user --org <organizationId> --email <email> --name <name> --role <role> [--json]\n' +
      `  Adds a person to an organization (roles: ${[...ROLES].reverse().join(', ')}) and issues them an API token.`,
    options: { org: text, email: text, name: text, role: text, json },
    async run(values, config) {
      const role = required(values, 'role');
      if (!isRole(role)) throw new UsageError(`--role must be one of ${[...ROLES].reverse().join(', ')}, got "${role}"`);
      const input = { organizationId: required(values, 'org'), email: email(values), name: required(values, 'name'), role };
      const result = await withDatabase(config, (handle) => addUser(handle.db, systemClock, input));
      print(
        values,
        { user: { id: result.user.id }, token: result.token },
        `${result.user.display_name} <${result.user.email}> (${result.user.id}) is a member with role "${role}".\n` +
          `API token (shown once): ${result.token}`,
      );
    },
  },
  'admin create-token': {
    usage: 'quire admin create-token --user <userId> [--label <label>] [--json]\n  Issues a new API token for a user.',
    options: { user: text, label: text, json },
    async run(values, config) {
      const userId = required(values, 'user');
      const label = typeof values.label === 'string' ? values.label : undefined;
      const result = await withDatabase(config, (handle) => createToken(handle.db, systemClock, userId, label));
      print(
        values,
        { token: result.token, id: result.id },
        `API token for ${result.user.email} (id ${result.id}, shown once): ${result.token}`,
      );
    },
  },
  'admin sign-in-link': {
    usage:
      'quire admin sign-in-link --email <email> [--json]\n' +
      '  Prints a one-time link (an hour, one use) that signs the person in to the app, where they may set a new password.',
    options: { email: text, json },
    async run(values, config) {
      const address = email(values);
      const { signInLinkForEmail } = await import('./services/signIn.ts');
      const result = await withServices(config, (ctx) => signInLinkForEmail(ctx, address));
      print(
        values,
        { user: { id: result.user.id }, url: result.url },
        `One-time sign-in link for ${result.user.email} (valid for an hour, one use):\n${result.url}`,
      );
    },
  },
  'admin revoke-token': {
    usage:
      'quire admin revoke-token (--token <token> | --id <tokenId>) [--json]\n' +
      '  Revokes an API token at once, given its value or its id.',
    options: { token: text, id: text, json },
    async run(values, config) {
      const token = typeof values.token === 'string' ? values.token : undefined;
      const tokenId = typeof values.id === 'string' ? values.id : undefined;
      if (!token === !tokenId) throw new UsageError('give exactly one of --token or --id');
      const revoked = await withDatabase(config, (handle) => revokeToken(handle.db, systemClock, { token, tokenId }));
      if (!revoked) throw new AppError(404, 'No active token matches; it may already be revoked');
      print(values, { revoked: true }, 'Token revoked.');
    },
  },
};

const OVERVIEW = `Usage: quire <command> [options]

Commands:
  serve                 serve the API (same as npm start)
  migrate               bring the database schema up to date
  reindex               rebuild the search index
  copy                  copy the whole instance into another database (SQLite ⇄ PostgreSQL)
  import                bring a folder in GitBook's format into a space
  export                write a space into a folder in GitBook's format
  admin bootstrap       create the first user, organization and token
  admin add-user        add a person to an organization and issue a token
  admin create-token    issue a new token for a user
  admin revoke-token    revoke a token
  admin sign-in-link    print a one-time sign-in link for a person (recovery)

Every command reads the same environment as the server (QUIRE_DATA_DIR, DATABASE_URL, …)
and takes --help.`;

async function main(argv: string[]): Promise<number> {
  const [first, second] = argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') {
    console.log(OVERVIEW);
    return first ? 0 : 2;
  }
  if (first === 'admin' && (!second || second.startsWith('-'))) {
    const adminLines = OVERVIEW.split('\n').filter((line) => line.startsWith('  admin '));
    console.log(`Usage: quire admin <command> [options]\n\nCommands:\n${adminLines.join('\n')}\n\nEach takes --help.`);
    return second === '--help' || second === '-h' ? 0 : 2;
  }
  const name = first === 'admin' ? `admin ${second}` : first;
  const command = commands[name];
  if (!command) {
    console.error(`quire: unknown command "${argv.slice(0, first === 'admin' ? 2 : 1).join(' ')}"; see quire --help`);
    return 2;
  }
  const rest = argv.slice(name.split(' ').length);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(`Usage: ${command.usage}`);
    return 0;
  }
  try {
    const { values, positionals } = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: true });
    if (positionals.length !== (command.positionals ?? 0)) {
      throw new UsageError(command.positionals ? `give exactly ${command.positionals} folder, got ${positionals.length}` : `takes no arguments, got "${positionals.join(' ')}"`);
    }
    const config = loadConfig();
    // The server logs them with its start; a command says them first, before it acts on a database they may have meant to name.
    if (name !== 'serve') for (const warning of unknownVariableWarnings()) console.error(`quire: ${warning}`);
    await command.run(values, config, positionals);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`quire ${name}: ${(error as Error).message} (see quire ${name} --help)`);
      return 2;
    }
    if (!(error instanceof ConfigError || error instanceof AppError || error instanceof CopyRefused) && process.env.LOG_LEVEL === 'debug') {
      console.error(error);
    }
    console.error(`quire ${name}: ${(error as Error).message}`);
    return 1;
  }
}

const exitCode = await main(process.argv.slice(2));
// `serve` keeps running; every other command ends here.
if (exitCode !== 0 || process.argv[2] !== 'serve') process.exit(exitCode);
