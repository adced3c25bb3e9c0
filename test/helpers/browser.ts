// The app as people use it: a real Quire server on 127.0.0.1 with a fresh database,
// serving the built app (made once per run by test/browser/globalSetup.ts), driven in
// headless Chromium through playwright-core. Chromium is Debian's (`QUIRE_CHROMIUM`
// names another); without it the browser tests fail under CI and skip elsewhere.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { chromiumMissing, launchChromium } from './chromium.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { freePort, startServerProcess, type ServerProcess } from './process.ts';

/** `describe`, or, without Chromium outside CI, a skipped one (the global setup says why, once). Under CI=true a missing Chromium fails. */
export const describeInBrowser = chromiumMissing && process.env.CI !== 'true' ? describe.skip : describe;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface BrowserHarness {
  server: ServerProcess;
  baseUrl: string;
  browser: Browser;
  database: TestDatabase;
  /** The server's environment, for the command line to reach the same database and address. */
  env: Record<string, string>;
  /** A new browser (its own cookies), at desktop size. */
  newContext(): Promise<BrowserContext>;
  /** A page in a new browser context. */
  newPage(): Promise<Page>;
}

/** A server on a fresh SQLite database and a Chromium, for one test file; both end after it. */
export function useBrowser(env: Record<string, string> = {}): BrowserHarness {
  const harness = {} as BrowserHarness;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    harness.database = await createTestDatabase('sqlite');
    const port = await freePort();
    harness.baseUrl = `http://127.0.0.1:${port}`;
    harness.env = { ...harness.database.env, PORT: String(port), QUIRE_PUBLIC_URL: harness.baseUrl, LOG_LEVEL: 'warn', ...env };
    const [server, browser] = await Promise.all([
      startServerProcess(harness.env),
      launchChromium(),
    ]);
    Object.assign(harness, { server, browser });
    harness.newContext = async () => {
      const context = await browser.newContext({ baseURL: harness.baseUrl, viewport: DESKTOP });
      contexts.push(context);
      return context;
    };
    harness.newPage = async () => (await harness.newContext()).newPage();
  }, 90_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await harness.browser?.close();
    harness.server?.child.kill('SIGTERM');
    await harness.server?.exited;
    await harness.database?.drop();
  });
  return harness;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Fails on any accessibility violation axe-core finds in the page as it is now, naming each. */
export async function expectAccessible(page: Page): Promise<void> {
  // What the screen shows once its answers have come, not a loading state on its way out.
  await page.waitForLoadState('networkidle');
  // Evaluated through the driver, which the page's policy (no inline script) does not govern.
  if ((await page.evaluate('typeof window.axe')) !== 'object') await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: Array<{ id: string; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((violation) => ({ id: violation.id, help: violation.help, nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`) }));
  });
  expect(violations, `axe-core on ${page.url()}`).toEqual([]);
}

/** Saves the page at desktop and phone sizes under /tmp/screens/ (not kept by the repository), for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync('/tmp/screens', { recursive: true });
  const size = page.viewportSize() ?? DESKTOP;
  await page.screenshot({ path: `/tmp/screens/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(100);
  await page.screenshot({ path: `/tmp/screens/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(size);
}

/** Fails when the page's policy refused anything (a script, a style, a connection): the app must need nothing it forbids. */
export function watchPolicy(page: Page): () => void {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  return () => expect(refused).toEqual([]);
}

/** A call to the API as the browser context's signed-in person: its cookie, and the CSRF token the app would send. */
export async function callAsSession(context: BrowserContext, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const state = await (await context.request.get('/auth/state')).json();
  const response = await context.request.fetch(path, {
    method,
    headers: { 'content-type': 'application/json', ...(state.session ? { 'x-csrf-token': state.session.csrfToken } : {}) },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status(), body: text ? JSON.parse(text) : undefined };
}
