// Where the browser tests find Chromium: Debian's, or the one `QUIRE_CHROMIUM` names.
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumMissing = !existsSync(chromiumPath);
