import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

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
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT /],
    [{ PORT: '70000' }, /^PORT /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL /],
    [{ QUIRE_PUBLIC_URL: 'docs.example.com' }, /^QUIRE_PUBLIC_URL /],
    [{ QUIRE_BODY_LIMIT: '-5' }, /^QUIRE_BODY_LIMIT /],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL /],
    [{ QUIRE_ALLOW_PRIVATE_URLS: 'sometimes' }, /^QUIRE_ALLOW_PRIVATE_URLS /],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
