// A worker thread of the CPU pool (pool.ts) when the sources run unbundled (tests, or
// a checkout where bin/quire.js could not write its bundles): threads do not inherit
// the main thread's TypeScript loader, so each registers tsx before loading run.ts.
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./run.ts');

export default run;
