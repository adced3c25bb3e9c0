// Vitest's global setup: the browser app is built once per run, before any test starts
// a server (a server started by `quire serve` would otherwise build it, slowly, itself).
// Kept by its sources' hash, so a run after no change to web/ builds nothing.
import { ensureWebApp } from '../../src/webApp/build.ts';

export default async function setup(): Promise<void> {
  await ensureWebApp((message) => console.log(`quire: ${message}`));
}
