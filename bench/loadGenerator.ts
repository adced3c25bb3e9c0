// A process of its own for one run of the mixed load (load.ts, benchLoadMix): its
// argument says the database, the run's options and where to write the result.
import { generateLoadMix } from './load.ts';

await generateLoadMix(process.argv[2]);
