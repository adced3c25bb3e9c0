import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { loggerOptions } from '../../src/lib/logging.ts';
import { createRequire } from 'node:module';

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

describe('logging', () => {
  it('writes readable lines to a terminal through pino-pretty, and JSON elsewhere', () => {
    expect(loggerOptions('info', true)).toMatchObject({ level: 'info', transport: { target: 'pino-pretty' } });
    expect(loggerOptions('warn', false)).toEqual({ level: 'warn' });
    expect(() => createRequire(import.meta.url).resolve('pino-pretty')).not.toThrow();
  });
});
