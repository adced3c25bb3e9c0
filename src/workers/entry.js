// A worker thread of the CPU pool (pool.ts). Threads do not inherit the main thread's
// TypeScript loader, so each registers tsx before loading the tasks.
import { register } from 'tsx/esm/api';

register();
const { tasks } = await import('./tasks.ts');

export default function run({ name, input }) {
  return tasks[name](input);
}
