// Loaded into a `quire serve` under the mixed load (node --import): each second, how
// long the server's event loop was held at worst and how long V8's collections paused
// it. On SIGUSR2 it writes the last ten minutes of those seconds to BENCH_PAUSES_FILE,
// so the benchmark can set the server's own stalls beside the seconds its requests
// waited longest. Plain JavaScript: it runs before Quire's loader registers TypeScript.
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';

const KEPT_SECONDS = 600;
/** Epoch second → { loopMaxMs, gcMs, gcMaxMs }. */
const seconds = new Map();
const secondOf = (epochMs) => {
  const at = Math.floor(epochMs / 1000);
  let entry = seconds.get(at);
  if (!entry) {
    entry = { at, loopMaxMs: 0, gcMs: 0, gcMaxMs: 0 };
    seconds.set(at, entry);
    for (const old of seconds.keys()) if (old < at - KEPT_SECONDS) seconds.delete(old);
  }
  return entry;
};

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
setInterval(() => {
  // The second just ended: the histogram holds that second's delays.
  const entry = secondOf(Date.now() - 1);
  entry.loopMaxMs = Math.max(entry.loopMaxMs, loop.max / 1e6);
  loop.reset();
}, 1000).unref();

new PerformanceObserver((list) => {
  for (const pause of list.getEntries()) {
    const entry = secondOf(performance.timeOrigin + pause.startTime);
    entry.gcMs += pause.duration;
    entry.gcMaxMs = Math.max(entry.gcMaxMs, pause.duration);
  }
}).observe({ entryTypes: ['gc'] });

process.on('SIGUSR2', () => {
  const file = process.env.BENCH_PAUSES_FILE;
  writeFileSync(`${file}.tmp`, JSON.stringify([...seconds.values()]));
  renameSync(`${file}.tmp`, file);
});
