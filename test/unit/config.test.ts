import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, unknownVariableWarnings, VARIABLES } from '../../src/config.ts';
import { editDistance } from '../../src/lib/editDistance.ts';
import { loggerOptions } from '../../src/lib/logging.ts';
import { startReport, withoutCredentials } from '../../src/startup.ts';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

describe('configuration', () => {
  it('has defaults that start Quire with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:8080',
      bodyLimit: 1024 * 1024,
      logLevel: 'info',
      allowPrivateUrls: false,
      rateLimitPerMinute: 3000,
      requestTimeoutMs: 60_000,
      workers: 1,
      corsOrigins: [],
      pdfMaxPages: 1000,
      pdfMaxText: 10 * 1024 * 1024,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      QUIRE_DATA_DIR: '/var/lib/quire',
      DATABASE_URL: 'postgres://u@db/quire',
      QUIRE_PUBLIC_URL: 'https://docs.example.com/',
      QUIRE_BODY_LIMIT: '512kb',
      LOG_LEVEL: 'warn',
      QUIRE_ALLOW_PRIVATE_URLS: 'true',
      QUIRE_RATE_LIMIT: '0',
      QUIRE_REQUEST_TIMEOUT: '5',
      QUIRE_JOB_LEASE: '2',
      QUIRE_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      QUIRE_WORKERS: '4',
      QUIRE_DATABASE_POOL: '12',
      QUIRE_CORS_ORIGINS: 'https://docs.example.com, http://localhost:3000/',
      QUIRE_PDF_MAX_PAGES: '200',
      QUIRE_PDF_MAX_TEXT: '2mb',
      QUIRE_RENDERER_URL: 'http://127.0.0.1:3000/',
      QUIRE_RENDERER_SECRET: 'shared',
      QUIRE_INTEGRATIONS: 'false',
      QUIRE_INTEGRATION_HOSTS: 'hooks.slack.com, *.Example.com, 127.0.0.1:9000',
      QUIRE_INTEGRATION_TIMEOUT: '5',
      QUIRE_INTEGRATION_MEMORY: '64',
      QUIRE_INTEGRATION_REQUESTS: '10',
      QUIRE_GIT_SYNC_POLL: '0',
    });
    expect(config).toEqual({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/var/lib/quire',
      databaseUrl: 'postgres://u@db/quire',
      publicUrl: 'https://docs.example.com',
      bodyLimit: 512 * 1024,
      logLevel: 'warn',
      allowPrivateUrls: true,
      gitSyncPollSeconds: 0,
      rateLimitPerMinute: 0,
      requestTimeoutMs: 5_000,
      jobLeaseMs: 2_000,
      secretsKey: Buffer.alloc(32, 7).toString('base64'),
      workers: 4,
      databasePool: 12,
      corsOrigins: ['https://docs.example.com', 'http://localhost:3000'],
      pdfMaxPages: 200,
      pdfMaxText: 2 * 1024 * 1024,
      renderer: { url: 'http://127.0.0.1:3000', secret: 'shared' },
      integrations: false,
      integrationHosts: ['hooks.slack.com', '*.example.com', '127.0.0.1:9000'],
      integrationLimits: { wallMs: 5_000, memoryMb: 64, requests: 10 },
    });
    expect(() => loadConfig({ QUIRE_INTEGRATION_HOSTS: 'https://hooks.slack.com/x' })).toThrow(
      'QUIRE_INTEGRATION_HOSTS must be host names separated by commas (hooks.slack.com, *.example.com), got "https://hooks.slack.com/x"',
    );
    expect(loadConfig({ QUIRE_CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
  });

  it('runs one worker per core with QUIRE_WORKERS=auto', () => {
    expect(loadConfig({ QUIRE_WORKERS: 'auto' }).workers).toBe(Math.min(availableParallelism(), 64));
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT /],
    [{ PORT: '70000' }, /^PORT /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL /],
    [{ QUIRE_PUBLIC_URL: 'docs.example.com' }, /^QUIRE_PUBLIC_URL /],
    [{ QUIRE_BODY_LIMIT: '-5' }, /^QUIRE_BODY_LIMIT /],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL /],
    [{ QUIRE_ALLOW_PRIVATE_URLS: 'sometimes' }, /^QUIRE_ALLOW_PRIVATE_URLS /],
    [{ QUIRE_RATE_LIMIT: 'lots' }, /^QUIRE_RATE_LIMIT /],
    [{ QUIRE_REQUEST_TIMEOUT: '0' }, /^QUIRE_REQUEST_TIMEOUT /],
    [{ QUIRE_JOB_LEASE: '0' }, /^QUIRE_JOB_LEASE /],
    [{ QUIRE_SECRETS_KEY: 'c2hvcnQ=' }, /^QUIRE_SECRETS_KEY /],
    [{ QUIRE_WORKERS: '0' }, /^QUIRE_WORKERS /],
    [{ QUIRE_WORKERS: '65' }, /^QUIRE_WORKERS must be a whole number from 1 to 64, or auto/],
    [{ QUIRE_WORKERS: 'two' }, /^QUIRE_WORKERS /],
    [{ QUIRE_DATABASE_POOL: '0' }, /^QUIRE_DATABASE_POOL must be a whole number of at least 1/],
    [{ QUIRE_CORS_ORIGINS: 'docs.example.com' }, /^QUIRE_CORS_ORIGINS /],
    [{ QUIRE_PDF_MAX_PAGES: '0' }, /^QUIRE_PDF_MAX_PAGES /],
    [{ QUIRE_PDF_MAX_TEXT: 'huge' }, /^QUIRE_PDF_MAX_TEXT /],
    [{ QUIRE_CORS_ORIGINS: 'https://docs.example.com/path' }, /^QUIRE_CORS_ORIGINS /],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('unknown QUIRE_* variables', () => {
  it('names each one, with the setting it was probably meant to be', () => {
    expect(
      unknownVariableWarnings({
        QUIRE_DATBASE_POOL: '3',
        quire_workers: '2',
        QUIRE_PUBLIC_ULR: 'https://docs.example.com',
        QUIRE_SOMETHING_ELSE: 'x',
        QUIRE_WORKERS: '2',
        PATH: '/usr/bin',
        DATABASE_URL: 'postgres://db/quire',
      }),
    ).toEqual([
      'QUIRE_DATBASE_POOL is not a setting Quire knows, so it is ignored: did you mean QUIRE_DATABASE_POOL?',
      'QUIRE_PUBLIC_ULR is not a setting Quire knows, so it is ignored: did you mean QUIRE_PUBLIC_URL?',
      'QUIRE_SOMETHING_ELSE is not a setting Quire knows, so it is ignored',
      'quire_workers is not a setting Quire knows, so it is ignored: did you mean QUIRE_WORKERS?',
    ]);
  });

  it('is quiet about every setting, and about the test suite\'s own QUIRE_TEST_* variables', () => {
    expect(unknownVariableWarnings(Object.fromEntries(VARIABLES.map((name) => [name, 'x'])))).toEqual([]);
    expect(unknownVariableWarnings({ QUIRE_TEST_ENGINE: 'postgres', QUIRE_TEST_ANYTHING: '1' })).toEqual([]);
  });

  it('knows what loadConfig reads: every QUIRE_* name in src/config.ts is in the list', () => {
    const source = readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8');
    const named = new Set(source.match(/\bQUIRE_[A-Z0-9_]*[A-Z0-9]\b/g));
    named.delete('QUIRE_TEST_ENGINE');
    expect([...named].filter((name) => !(VARIABLES as readonly string[]).includes(name))).toEqual([]);
  });

  it("is documented: every variable has a row in the README's configuration table and in docs/configuration.md", () => {
    for (const page of ['README.md', 'docs/configuration.md']) {
      const text = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
      const rows = new Set([...text.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1]));
      expect(VARIABLES.filter((name) => !rows.has(name)), `variables without a row in ${page}`).toEqual([]);
      expect([...rows].filter((name) => !(VARIABLES as readonly string[]).includes(name)), `rows of ${page} that are no variable`).toEqual([]);
    }
  });

  it('measures names by edits', () => {
    expect(editDistance('QUIRE_PORT', 'QUIRE_PORT')).toBe(0);
    expect(editDistance('QUIRE_DATBASE_POOL', 'QUIRE_DATABASE_POOL')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('the start report', () => {
  it('names the SQLite file and the data folder, and where the API reference is', () => {
    const report = startReport(loadConfig({ QUIRE_DATA_DIR: '/var/lib/quire', QUIRE_PUBLIC_URL: 'https://docs.example.com/' }), {});
    expect(report.fields).toEqual({ database: 'SQLite /var/lib/quire/quire.db', dataFolder: '/var/lib/quire', apiReference: 'https://docs.example.com/docs' });
    expect(report.message).toBe(
      'Quire is serving https://docs.example.com; database: SQLite /var/lib/quire/quire.db; data folder: /var/lib/quire; API reference: https://docs.example.com/docs',
    );
    expect(report.warnings).toEqual([]);
  });

  it('shows a PostgreSQL URL without its credentials', () => {
    const report = startReport(loadConfig({ DATABASE_URL: 'postgres://quire:s3cret@db.internal:5432/quire', QUIRE_DATA_DIR: '/srv/quire' }), { QUIRE_WORKER: '2' });
    expect(report.fields.database).toBe('PostgreSQL postgres://db.internal:5432/quire');
    expect(report.message).not.toContain('s3cret');
    expect(report.warnings).toEqual(['QUIRE_WORKER is not a setting Quire knows, so it is ignored: did you mean QUIRE_WORKERS?']);
    expect(withoutCredentials('postgres://u:p@ss@/quire?host=/run/postgresql&password=p&sslmode=require')).toBe('postgres:///quire?host=%2Frun%2Fpostgresql&sslmode=require');
    expect(withoutCredentials('postgresql://db/quire')).toBe('postgresql://db/quire');
  });
});

describe('logging', () => {
  it('writes readable lines to a terminal through pino-pretty, and JSON elsewhere', () => {
    expect(loggerOptions('info', true)).toMatchObject({ level: 'info', transport: { target: 'pino-pretty' } });
    expect(loggerOptions('warn', false)).toEqual({ level: 'warn' });
    expect(() => createRequire(import.meta.url).resolve('pino-pretty')).not.toThrow();
  });
});
