// Builds Quire on a fresh database for one test file, and speaks HTTP to it through
// app.inject the way a client would.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { DatabaseHandle } from '../../src/db/index.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export interface TestClock extends Clock {
  advance(milliseconds: number): void;
}

/** A clock that moves only when told to, one millisecond per reading so order is strict. */
export function createTestClock(start = Date.parse('2026-01-01T00:00:00.000Z')): TestClock {
  let now = start;
  return {
    now: () => new Date(now++),
    advance: (milliseconds) => {
      now += milliseconds;
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  testDatabase: TestDatabase;
  clock: TestClock;
}

/** The configuration of a test app on a database: silent, at http://quire.test, with `env` over that. */
export function testAppConfig(databaseEnv: TestDatabase['env'], env: Record<string, string> = {}) {
  return loadConfig({ ...databaseEnv, LOG_LEVEL: 'silent', QUIRE_PUBLIC_URL: 'http://quire.test', ...env });
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const testDatabase = await createTestDatabase();
  const database = await testDatabase.open();
  const clock = createTestClock();
  const config = testAppConfig(testDatabase.env, env);
  const app = await buildApp({ config, database, clock });
  await app.ready();
  return { app, database, testDatabase, clock };
}

export async function stopTestApp(testApp: TestApp): Promise<void> {
  await testApp.app.close();
  await testApp.database.close();
  await testApp.testDatabase.drop();
}

/**
 * Opens a fresh database before the file's tests and closes and drops it after them,
 * for tests that drive the database without an app. (Here, not in database.ts, which
 * the benchmarks load without vitest.)
 */
export function useTestDatabase(): Pick<TestApp, 'database' | 'testDatabase'> {
  const holder = {} as Pick<TestApp, 'database' | 'testDatabase'>;
  beforeAll(async () => {
    holder.testDatabase = await createTestDatabase();
    holder.database = await holder.testDatabase.open();
  });
  afterAll(async () => {
    await holder.database.close();
    await holder.testDatabase.drop();
  });
  return holder;
}

/** Starts a test app before the file's tests and removes it after them. */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  const holder = {} as TestApp;
  beforeAll(async () => {
    Object.assign(holder, await startTestApp(env));
  });
  afterAll(async () => {
    await stopTestApp(holder);
  });
  return holder;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
}

export async function request<T = any>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const query = Object.fromEntries(
    Object.entries(options.query ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  );
  const response = await app.inject({
    method,
    url,
    query,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
  const text = response.body;
  return {
    status: response.statusCode,
    body: text ? JSON.parse(text) : undefined,
    headers: response.headers,
  };
}

/** Walks a list to its end, answering every item it returned in order. */
export async function walkList<T = any>(
  app: FastifyInstance,
  url: string,
  options: RequestOptions & { limit: number },
): Promise<{ items: T[]; pages: number; counts: number[] }> {
  const items: T[] = [];
  const counts: number[] = [];
  let page: string | undefined;
  let pages = 0;
  do {
    const response = await request(app, 'GET', url, { ...options, query: { ...options.query, limit: options.limit, page } });
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${JSON.stringify(response.body)}`);
    items.push(...response.body.items);
    counts.push(response.body.count);
    page = response.body.next?.page;
    pages++;
  } while (page && pages < 10_000);
  return { items, pages, counts };
}

/**
 * Waits until every delivery of the app's events has run: the work that follows a
 * change (readers' documents, link checks, …) runs soon after the change answers.
 */
export async function eventsDelivered(testApp: TestApp, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await testApp.database.db.selectFrom('event_deliveries').select('subscriber').where('state', '=', 'pending').execute();
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error(`deliveries still pending: ${pending.map((row) => row.subscriber).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
