// Loaded into a `quire serve` under benchmark (node --import) by bench/memory.ts: on
// SIGUSR2 it writes the process's memory, split into V8's heap and the rest, to
// BENCH_MEMORY_FILE, so the benchmark can tell what grows.
import { renameSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const megabytes = (bytes) => Math.round(bytes / 1e6);

process.on('SIGUSR2', () => {
  const usage = process.memoryUsage();
  const report = {
    rss: megabytes(usage.rss),
    heapTotal: megabytes(usage.heapTotal),
    heapUsed: megabytes(usage.heapUsed),
    external: megabytes(usage.external),
    spaces: Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, megabytes(space.space_used_size)])),
  };
  const file = process.env.BENCH_MEMORY_FILE;
  writeFileSync(`${file}.tmp`, JSON.stringify(report));
  renameSync(`${file}.tmp`, file);
});
