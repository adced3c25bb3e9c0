// Chromium for the browser tests and bench/app: Debian's, or the one `QUIRE_CHROMIUM`
// names, launched headless as the tests need it. No vitest here: the benchmarks load it.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumMissing = !existsSync(chromiumPath);

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchChromium(): Promise<Browser> {
  if (chromiumMissing) throw new Error(`No Chromium at ${chromiumPath}: install Debian's (apt-get install -y chromium) or set QUIRE_CHROMIUM`);
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
}
