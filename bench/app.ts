// The app's first screen, measured in Chromium over the network as a browser gets it:
// the JavaScript the sign-in screen loads, gzipped as the server sends it (target
// ≤ 200 KB, issue 73), its stylesheets, and the time from navigation to the sign-in
// form shown (median of 5, each in a fresh browser context, so nothing is cached).
import { ensureWebApp } from '../src/webApp/build.ts';
import { chromiumMissing, chromiumPath, launchChromium } from '../test/helpers/chromium.ts';
import { createTestDatabase } from '../test/helpers/database.ts';
import { startServerProcess } from '../test/helpers/process.ts';

export interface AppResult {
  scripts: number;
  scriptBytes: number;
  scriptBytesUncompressed: number;
  styleBytes: number;
  formShownMs: number[];
}

export async function benchApp(): Promise<AppResult | string> {
  if (chromiumMissing) return `skipped: no Chromium at ${chromiumPath}`;
  await ensureWebApp();
  const database = await createTestDatabase('sqlite');
  const server = await startServerProcess({ ...database.env, LOG_LEVEL: 'warn' });
  const browser = await launchChromium();
  try {
    // An organization exists, so / leads to sign-in rather than to the first run's setup.
    const setup = await fetch(`${server.baseUrl}/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organization: 'Bench', name: 'Bench', email: 'bench@quire.test', password: 'a bench password' }),
    });
    if (setup.status !== 201) throw new Error(`setup answered ${setup.status}`);
    let result: AppResult | undefined;
    const formShownMs: number[] = [];
    for (let run = 0; run < 5; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const loads: Array<Promise<{ type: string; encoded: number; decoded: number }>> = [];
      page.on('requestfinished', (request) => {
        loads.push(
          (async () => {
            const sizes = await request.sizes();
            const response = await request.response();
            return { type: request.resourceType(), encoded: sizes.responseBodySize, decoded: Number((await response?.body())?.length ?? 0) };
          })(),
        );
      });
      const started = performance.now();
      await page.goto(`${server.baseUrl}/`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      formShownMs.push(performance.now() - started);
      await page.waitForLoadState('networkidle');
      const finished = await Promise.all(loads);
      const scripts = finished.filter((load) => load.type === 'script');
      result ??= {
        scripts: scripts.length,
        scriptBytes: scripts.reduce((sum, load) => sum + load.encoded, 0),
        scriptBytesUncompressed: scripts.reduce((sum, load) => sum + load.decoded, 0),
        styleBytes: finished.filter((load) => load.type === 'stylesheet').reduce((sum, load) => sum + load.encoded, 0),
        formShownMs,
      };
      await context.close();
    }
    return result!;
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await server.exited;
    await database.drop();
  }
}
