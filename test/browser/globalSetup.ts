// The browser project's global setup: the app must build (the run's own setup only warns
// when it does not); without Chromium the browser tests skip, saying why once, visibly,
// or under CI fail the run.
import { ensureWebApp } from '../../src/webApp/build.ts';
import { chromiumMissing, chromiumPath } from '../helpers/chromium.ts';

export default async function setup(): Promise<void> {
  if (chromiumMissing) {
    const why = `No Chromium at ${chromiumPath}: install Debian's (apt-get install -y chromium) or set QUIRE_CHROMIUM.`;
    if (process.env.CI === 'true') throw new Error(`${why} The browser tests must run under CI.`);
    console.warn(`\n\u26a0 The browser tests are SKIPPED. ${why}\n`);
    return;
  }
  await ensureWebApp();
}
