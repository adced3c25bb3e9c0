// The browser project's global setup: says once, visibly, why its tests skip without Chromium, and fails the run under CI.
import { chromiumMissing, chromiumPath } from '../helpers/chromium.ts';

export default function setup(): void {
  if (!chromiumMissing) return;
  const why = `No Chromium at ${chromiumPath}: install Debian's (apt-get install -y chromium) or set QUIRE_CHROMIUM.`;
  if (process.env.CI === 'true') throw new Error(`${why} The browser tests must run under CI.`);
  console.warn(`\n\u26a0 The browser tests are SKIPPED. ${why}\n`);
}
