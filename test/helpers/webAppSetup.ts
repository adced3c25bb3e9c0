// Vitest's global setup: the browser app is built once per run, before any test starts
// a server (a server started by `quire serve` would otherwise build it, slowly, itself).
// Kept by its sources' hash, so a run after no change to web/ builds nothing. A web/
// that does not build (someone's change half made) fails the browser tests and the
// app's HTTP tests, not every other test of the run.
import { ensureWebApp } from '../../src/webApp/build.ts';

export default async function setup(): Promise<void> {
  try {
    await ensureWebApp((message) => console.log(`quire: ${message}`));
  } catch (error) {
    console.warn(`\n\u26a0 The app (web/) did not build, so its tests will fail: ${(error as Error).message}\n`);
  }
}
