// Loaded into a `quire serve` under benchmark (node --import) by bench/memory.ts: on
// SIGUSR2 it writes the process's memory, split into V8's heap and the rest, to
// BENCH_MEMORY_FILE, so the benchmark can tell what grows. When the benchmark asks
// (a file beside that one, `.live`) and the server runs with --expose-gc, it also
// collects everything and reports what is live: the memory the process needs, which
// V8's heap and the RSS exceed by as much garbage as V8 lets grow.
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  if (existsSync(`${file}.live`) && globalThis.gc) {
    rmSync(`${file}.live`);
    globalThis.gc();
    globalThis.gc();
    report.live = megabytes(process.memoryUsage().heapUsed);
  }
  writeFileSync(`${file}.tmp`, JSON.stringify(report));
  renameSync(`${file}.tmp`, file);
});
