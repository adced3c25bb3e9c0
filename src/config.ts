// Reads and validates Quire's configuration from the environment, in one place.
// Every variable here is listed in VARIABLES and in the README's configuration table
// (test/unit/config.test.ts checks both); an invalid value stops the start with a
// one-line message naming the variable.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { closest } from './lib/editDistance.ts';

/**
 * Every environment variable Quire reads. loadConfig reads the environment through this
 * list (a name not in it does not type-check there), and a QUIRE_* variable not in it is
 * reported at start: a misspelled setting is otherwise ignored without a word.
 */
export const VARIABLES = [
  'PORT',
  'HOST',
  'QUIRE_DATA_DIR',
  'DATABASE_URL',
  'QUIRE_PUBLIC_URL',
  'QUIRE_BODY_LIMIT',
  'LOG_LEVEL',
  'QUIRE_RATE_LIMIT',
  'QUIRE_REQUEST_TIMEOUT',
  'QUIRE_JOB_LEASE',
  'QUIRE_SECRETS_KEY',
  'QUIRE_WORKERS',
  'QUIRE_DATABASE_POOL',
  'QUIRE_CORS_ORIGINS',
  'QUIRE_MERMAID_URL',
  'QUIRE_RENDERER_URL',
  'QUIRE_RENDERER_SECRET',
  'QUIRE_INTEGRATIONS',
  'QUIRE_INTEGRATION_HOSTS',
  'QUIRE_INTEGRATION_TIMEOUT',
  'QUIRE_INTEGRATION_MEMORY',
  'QUIRE_INTEGRATION_REQUESTS',
  'QUIRE_PDF_MAX_PAGES',
  'QUIRE_PDF_MAX_TEXT',
  'QUIRE_ALLOW_PRIVATE_URLS',
  'QUIRE_GIT_SYNC_POLL',
  'QUIRE_SMTP_URL',
  'QUIRE_MAIL_FROM',
] as const;

export type VariableName = (typeof VARIABLES)[number];

/** The environment as loadConfig may read it: the listed variables only. */
type Environment = { readonly [Name in VariableName]?: string };

/** QUIRE_* variables that are not settings: the test suite's own (QUIRE_TEST_ENGINE, set by vitest.config.ts). */
const NOT_SETTINGS = /^QUIRE_TEST_/i;

/**
 * One warning per QUIRE_* variable (in any case) that is not a setting, naming the
 * closest setting when one is near enough to be what was meant.
 */
export function unknownVariableWarnings(environment: NodeJS.ProcessEnv = process.env): string[] {
  const known = new Set<string>(VARIABLES);
  const settings = VARIABLES.filter((name) => name.startsWith('QUIRE_'));
  return Object.keys(environment)
    .filter((name) => name.toUpperCase().startsWith('QUIRE_') && !known.has(name) && !NOT_SETTINGS.test(name))
    .sort()
    .map((name) => {
      const meant = closest(name.toUpperCase(), settings, Math.max(2, Math.floor(name.length / 4)));
      return `${name} is not a setting Quire knows, so it is ignored${meant ? `: did you mean ${meant}?` : ''}`;
    });
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… when set; otherwise the embedded SQLite database in dataDir. */
  databaseUrl: string | undefined;
  /** Base of every `urls.*` field, without a trailing slash. */
  publicUrl: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  logLevel: LogLevel;
  /** Lets URL-fetching features reach loopback and private addresses. */
  allowPrivateUrls: boolean;
  /** Seconds between two asks of a synced space's remote whether its branch moved; 0: never (webhooks only). */
  gitSyncPollSeconds: number;
  /** Requests a minute each API token may make (per process); 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Milliseconds a client has to send a whole request, and an idle connection is kept. */
  requestTimeoutMs: number;
  /**
   * Milliseconds a process holds a background job between renewals; a job whose
   * process died runs again elsewhere once this has passed.
   */
  jobLeaseMs: number;
  /** 32-byte key (base64) sealing integration secrets; unset: a key file in dataDir. */
  secretsKey: string | undefined;
  /** Processes `quire serve` runs, sharing the port and the database; 1 serves in this process; `auto` is one per core. */
  workers: number;
  /** PostgreSQL connections each process keeps at most (undefined: db/dialect.ts's default). */
  databasePool: number | undefined;
  /** The most pages, and characters of markdown, one PDF export holds. */
  pdfMaxPages: number;
  pdfMaxText: number;
  /** Browser origins allowed to call the API (CORS); empty: none; ['*']: any. */
  corsOrigins: string[];
  /** An ES module build of mermaid the reader's pages load to draw diagrams; unset: diagrams show as their source. */
  mermaidUrl: string | undefined;
  /**
   * GitBook's renderer serving Quire's sites: its cache is told when published content
   * changes (`/~gitbook/revalidate`, signed with the secret it knows as GITBOOK_SECRET).
   */
  renderer: { url: string; secret: string | undefined } | undefined;
  /** Whether integration scripts run (in workerd, when its optional package is installed). */
  integrations: boolean;
  /** Hosts integration scripts may call besides Quire's own API; `*.example.com` allows subdomains. */
  integrationHosts: string[];
  integrationLimits: { wallMs: number; memoryMb: number; requests: number };
  /** Where Quire sends e-mail (invites, password resets) and as whom; unset: it sends none. */
  mail: { smtpUrl: string; from: string } | undefined;
}

/** The most one PDF export holds unless QUIRE_PDF_MAX_PAGES / QUIRE_PDF_MAX_TEXT say otherwise. */
export const PDF_DEFAULT_LIMITS = { pages: 1_000, text: 10 * 1024 * 1024 };

/** More processes than this on one machine only add contention. */
const MAX_WORKERS = 64;

export class ConfigError extends Error {}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 * 1024, gb: 1024 * 1024 * 1024 };

function parseSize(name: string, raw: string): number {
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(raw.trim());
  const bytes = match ? Number(match[1]) * SIZE_UNITS[(match[2] ?? '').toLowerCase()] : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new ConfigError(`${name} must be a size such as 1048576, 512kb or 1mb, got "${raw}"`);
  }
  return bytes;
}

function parseWholeNumber(name: string, raw: string, minimum: number): number {
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < minimum) {
    throw new ConfigError(`${name} must be a whole number of at least ${minimum}, got "${raw}"`);
  }
  return value;
}

function parseBoolean(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(value)) return true;
  if (['false', '0', 'no', ''].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function parseUrl(name: string, raw: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}, got "${raw}"`);
  }
  return raw;
}

/** smtp:// (STARTTLS when offered) or smtps://, credentials in the URL; never echoed, as it holds a password. */
function parseSmtpUrl(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw.trim());
  } catch {
    url = undefined;
  }
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
    throw new ConfigError('QUIRE_SMTP_URL must be smtp://user:password@host:587 or smtps://user:password@host:465 (its value is not shown, as it may hold a password)');
  }
  return raw.trim();
}

/** An RFC 5322 sender, `Quire <quire@docs.example.com>` or a bare address. */
function parseMailFrom(raw: string): string {
  const address = /<([^<>]+)>\s*$/.exec(raw.trim())?.[1] ?? raw.trim();
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(address)) {
    throw new ConfigError(`QUIRE_MAIL_FROM must be an address, or a name and an address (Quire <quire@docs.example.com>), got "${raw}"`);
  }
  return raw.trim();
}

function parseSecretsKey(raw: string): string {
  if (Buffer.from(raw.trim(), 'base64').length !== 32) {
    throw new ConfigError('QUIRE_SECRETS_KEY must be 32 random bytes in base64 (openssl rand -base64 32)');
  }
  return raw.trim();
}

function parseWorkers(raw: string): number {
  const value = raw.trim().toLowerCase();
  if (value === 'auto') return Math.min(availableParallelism(), MAX_WORKERS);
  const workers = Number(value);
  if (!/^\d+$/.test(value) || workers < 1 || workers > MAX_WORKERS) {
    throw new ConfigError(`QUIRE_WORKERS must be a whole number from 1 to ${MAX_WORKERS}, or auto (one per core), got "${raw}"`);
  }
  return workers;
}

/** "hooks.slack.com, *.example.com": host names, each optionally under a `*.` wildcard. */
function parseHosts(raw: string): string[] {
  const hosts = raw.split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean);
  for (const host of hosts) {
    if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d+)?$/.test(host)) {
      throw new ConfigError(`QUIRE_INTEGRATION_HOSTS must be host names separated by commas (hooks.slack.com, *.example.com), got "${host}"`);
    }
  }
  return hosts;
}

/** "https://a.example, http://localhost:3000" or "*": each an origin, scheme and host with no path. */
function parseCorsOrigins(raw: string): string[] {
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.length === 1 && entries[0] === '*') return ['*'];
  return entries.map((entry) => {
    let origin: string | undefined;
    try {
      origin = new URL(entry).origin;
    } catch {
      origin = undefined;
    }
    if (!origin || origin === 'null' || origin !== entry.replace(/\/+$/, '')) {
      throw new ConfigError(`QUIRE_CORS_ORIGINS must be "*" or origins separated by commas (https://docs.example.com), got "${entry}"`);
    }
    return origin;
  });
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const env: Environment = environment;
  const port = parsePort(env.PORT ?? '8080');
  const logLevel = (env.LOG_LEVEL ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const databaseUrl = env.DATABASE_URL
    ? parseUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:'])
    : undefined;
  const publicUrl = parseUrl('QUIRE_PUBLIC_URL', env.QUIRE_PUBLIC_URL ?? `http://localhost:${port}`, [
    'http:',
    'https:',
  ]).replace(/\/+$/, '');
  const host = env.HOST ?? '0.0.0.0';
  if (!host.trim()) throw new ConfigError('HOST must not be empty');
  return {
    port,
    host,
    dataDir: resolve(env.QUIRE_DATA_DIR ?? './data'),
    databaseUrl,
    publicUrl,
    bodyLimit: parseSize('QUIRE_BODY_LIMIT', env.QUIRE_BODY_LIMIT ?? '1mb'),
    logLevel,
    allowPrivateUrls: parseBoolean('QUIRE_ALLOW_PRIVATE_URLS', env.QUIRE_ALLOW_PRIVATE_URLS ?? 'false'),
    gitSyncPollSeconds: parseWholeNumber('QUIRE_GIT_SYNC_POLL', env.QUIRE_GIT_SYNC_POLL ?? '300', 0),
    rateLimitPerMinute: parseWholeNumber('QUIRE_RATE_LIMIT', env.QUIRE_RATE_LIMIT ?? '3000', 0),
    requestTimeoutMs: 1000 * parseWholeNumber('QUIRE_REQUEST_TIMEOUT', env.QUIRE_REQUEST_TIMEOUT ?? '60', 1),
    jobLeaseMs: 1000 * parseWholeNumber('QUIRE_JOB_LEASE', env.QUIRE_JOB_LEASE ?? '60', 1),
    secretsKey: env.QUIRE_SECRETS_KEY ? parseSecretsKey(env.QUIRE_SECRETS_KEY) : undefined,
    workers: parseWorkers(env.QUIRE_WORKERS ?? '1'),
    databasePool: env.QUIRE_DATABASE_POOL ? parseWholeNumber('QUIRE_DATABASE_POOL', env.QUIRE_DATABASE_POOL, 1) : undefined,
    corsOrigins: parseCorsOrigins(env.QUIRE_CORS_ORIGINS ?? ''),
    pdfMaxPages: env.QUIRE_PDF_MAX_PAGES ? parseWholeNumber('QUIRE_PDF_MAX_PAGES', env.QUIRE_PDF_MAX_PAGES, 1) : PDF_DEFAULT_LIMITS.pages,
    pdfMaxText: env.QUIRE_PDF_MAX_TEXT ? parseSize('QUIRE_PDF_MAX_TEXT', env.QUIRE_PDF_MAX_TEXT) : PDF_DEFAULT_LIMITS.text,
    mermaidUrl: env.QUIRE_MERMAID_URL ? parseUrl('QUIRE_MERMAID_URL', env.QUIRE_MERMAID_URL, ['http:', 'https:']) : undefined,
    renderer: env.QUIRE_RENDERER_URL
      ? { url: parseUrl('QUIRE_RENDERER_URL', env.QUIRE_RENDERER_URL, ['http:', 'https:']).replace(/\/+$/, ''), secret: env.QUIRE_RENDERER_SECRET || undefined }
      : undefined,
    integrations: parseBoolean('QUIRE_INTEGRATIONS', env.QUIRE_INTEGRATIONS ?? 'true'),
    integrationHosts: parseHosts(env.QUIRE_INTEGRATION_HOSTS ?? ''),
    integrationLimits: {
      wallMs: 1000 * parseWholeNumber('QUIRE_INTEGRATION_TIMEOUT', env.QUIRE_INTEGRATION_TIMEOUT ?? '10', 1),
      memoryMb: parseWholeNumber('QUIRE_INTEGRATION_MEMORY', env.QUIRE_INTEGRATION_MEMORY ?? '128', 16),
      requests: parseWholeNumber('QUIRE_INTEGRATION_REQUESTS', env.QUIRE_INTEGRATION_REQUESTS ?? '50', 0),
    },
    mail: env.QUIRE_SMTP_URL
      ? {
          smtpUrl: parseSmtpUrl(env.QUIRE_SMTP_URL),
          from: parseMailFrom(env.QUIRE_MAIL_FROM ?? `Quire <quire@${new URL(publicUrl).hostname}>`),
        }
      : undefined,
  };
}
