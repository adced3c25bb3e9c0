// What a worker thread of the CPU pool (pool.ts) runs: one task by its name. bin/quire.js
// bundles this module for the threads; under tests, entry.js loads it through tsx.
import { tasks, type Tasks } from './tasks.ts';

export default function run({ name, input }: { name: keyof Tasks; input: unknown }): unknown {
  return (tasks[name] as (input: unknown) => unknown)(input);
}
